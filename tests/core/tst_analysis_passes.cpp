// SPDX-License-Identifier: MIT
// The analysis passes on tiny models built through onnx's protobuf API. Every expected number is worked out
// by hand in the comment next to it, from the s100 profile (80 TOPS, 76.8 GB/s x 0.61, H->8 W->16 C->32,
// general unit 16, 4 MiB SRAM budget).
#include "OnnxFixtures.h"

#include "core/advice/Advisor.h"
#include "core/advice/FindingKinds.h"
#include "core/analysis/Alignment.h"
#include "core/analysis/Analyzer.h"
#include "core/analysis/Roofline.h"
#include "core/edit/Edit.h"
#include "core/io/AnalysisJson.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

using fixtures::ModelBuilder;

namespace {

const bpu::TargetProfile& s100() {
    static const bpu::TargetProfile t = bpu::loadTargetProfile("s100");
    return t;
}

struct Run {
    bpu::Graph g;
    bpu::AnalysisResult r;

    bpu::NodeId nodeId(const std::string& name) const {
        bpu::NodeId id = g.findNode(name);
        if (!id.valid())
            qFatal("no node %s", name.c_str());
        return id;
    }
    bpu::TensorId tensorId(const std::string& name) const {
        bpu::TensorId id = g.findTensor(name);
        if (!id.valid())
            qFatal("no tensor %s", name.c_str());
        return id;
    }
    const bpu::NodeAnalysis& node(const std::string& name) const { return r.nodes[nodeId(name).value]; }
    const bpu::TensorAnalysis& tensor(const std::string& name) const {
        return r.tensors[tensorId(name).value];
    }
    /// How dim `d` of tensor `name` was padded, in words ("" when unchanged), under the s100 profile.
    std::string dimRule(const std::string& name, size_t d) const {
        return bpu::dimPadRule(tensor(name).padded, g.tensor(tensorId(name)).shape.dims, d, s100().alignment);
    }
    /// The findings of `rule` (an enum: a misspelt rule does not compile, where a name would match nothing).
    std::vector<const bpu::Finding*> findings(bpu::RuleId rule) const {
        std::vector<const bpu::Finding*> out;
        for (const auto& f : r.findings)
            if (f.rule == rule)
                out.push_back(&f);
        return out;
    }
    std::string placement(const std::string& name) const { return bpu::placementName(node(name).placement); }
};

// Every finding names a rule of guide-en.md exactly, and no gain is invented before the cost engine runs.
void checkFindings(const Run& run, const bpu::TargetProfile& t) {
    static const std::set<std::string> rules{"G1.1", "G1.2", "G3",   "G4.1", "G4.2", "G4.3",
                                             "G6.1", "G6.2", "G6.3", "G6.4", "G6.5", "G6.6"};
    const nlohmann::json j = bpu::analysisJson(run.g, t, run.r);
    QCOMPARE(j["schema"].get<std::string>(), std::string("bpuscope.analysis/1"));
    for (const auto& f : j["findings"]) {
        QVERIFY2(rules.count(f["rule"].get<std::string>()), f.dump().c_str());
        QVERIFY2(f.contains("estimated_gain_ms") && f["estimated_gain_ms"].is_null(), f.dump().c_str());
        const std::string sev = f["severity"].get<std::string>();
        QVERIFY2(sev == "high" || sev == "medium" || sev == "low", f.dump().c_str());
        QVERIFY(!f["title"].get<std::string>().empty());
        QVERIFY(!f["recommendation"].get<std::string>().empty());
    }
    for (const auto& n : j["nodes"]) {
        const std::string p = n["placement"].get<std::string>();
        QVERIFY2(p == "BPU" || p == "CPU" || p == "folded", n.dump().c_str());
        QVERIFY2(!n["placement_reason"].get<std::string>().empty(), n.dump().c_str());
    }
}

/// The pass tests look at every pass the toolchain can insert, the model's own I/O included: float model I/O
/// (--deploy keep-io-qdq) unless a test says otherwise. The default deployment (--fast-perf) is tst_deploy's.
bpu::AnalysisOptions floatIo() {
    bpu::AnalysisOptions o;
    o.deploy = bpu::DeploySettings::keepIoQdq();
    return o;
}

Run analyze(const ModelBuilder& b, const std::string& file, const bpu::TargetProfile& t = s100(),
            const bpu::AnalysisOptions& options = floatIo()) {
    Run run{bpu::ModelImporter::load(b.save(file)), {}};
    run.r = bpu::Analyzer::analyze(run.g, t, options);
    bpu::Advisor::addFindings(run.g, t, options, run.r);
    checkFindings(run, t);
    return run;
}

onnx::TensorProto& floats(ModelBuilder& b, const std::string& name, std::vector<float> values,
                          std::vector<int64_t> dims = {}) {
    auto* t = b.graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (auto d : dims)
        t->add_dims(d);
    for (float v : values)
        t->add_float_data(v);
    return *t;
}

void int8Scalar(ModelBuilder& b, const std::string& name) {
    auto* t = b.graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT8);
    t->add_int32_data(0);
}

void valueInfo(ModelBuilder& b, const std::string& name, std::vector<int64_t> dims) {
    auto* vi = b.graph().add_value_info();
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    for (auto d : dims)
        tt->mutable_shape()->add_dim()->set_dim_value(d);
}

onnx::NodeProto& conv(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& w,
                      const std::string& out, int64_t k, int64_t group = 1) {
    auto& n = b.node("Conv", {in, w}, {out}, name);
    fixtures::setInts(n, "kernel_shape", {k, k});
    fixtures::setInts(n, "pads", {k / 2, k / 2, k / 2, k / 2});
    if (group != 1)
        fixtures::setInt(n, "group", group);
    return n;
}

// Quantize -> Dequantize pair on `in`, as QDQ exports write around every quantized op.
void qdq(ModelBuilder& b, const std::string& prefix, const std::string& in, const std::string& out) {
    b.node("QuantizeLinear", {in, "s", "zp"}, {prefix + "_q"}, "q_" + prefix);
    b.node("DequantizeLinear", {prefix + "_q", "s", "zp"}, {out}, "dq_" + prefix);
}

void quantizedWeight(ModelBuilder& b, const std::string& name, std::vector<int64_t> dims) {
    b.weight(name + "_int8", dims, onnx::TensorProto::INT8);
    b.node("DequantizeLinear", {name + "_int8", "s", "zp"}, {name}, "dq_" + name);
}

// x -> Conv -> s -> Sigmoid x (steps-1) -> Add(chain, s): s lives `steps` topological steps.
ModelBuilder shortcutModel(int64_t c, int64_t h, int64_t w, int steps) {
    ModelBuilder b;
    b.input("x", {1, c, h, w});
    b.weight("w", {c, c, 1, 1});
    conv(b, "conv0", "x", "w", "s", 1);
    std::string prev = "s";
    for (int i = 1; i < steps; ++i) {
        std::string out = "t" + std::to_string(i);
        b.node("Sigmoid", {prev}, {out}, "sig" + std::to_string(i));
        prev = out;
    }
    b.node("Add", {prev, "s"}, {"y"}, "add");
    b.output("y");
    return b;
}

bool hasPass(const Run& run, const std::string& tensor, const std::string& kind, const std::string& where,
             int64_t elements) {
    return std::any_of(run.r.qdq.begin(), run.r.qdq.end(), [&](const bpu::QdqPass& p) {
        return run.g.tensor(p.tensor).name == tensor && p.kind == kind && p.where == where &&
               p.elements == elements;
    });
}

QString passesText(const Run& run) {
    QStringList l;
    for (const auto& p : run.r.qdq)
        l << QStringLiteral("%1 %2 %3 %4")
                 .arg(QString::fromStdString(run.g.tensor(p.tensor).name), QString::fromStdString(p.kind),
                      QString::fromStdString(p.where))
                 .arg(p.elements);
    return l.join(QStringLiteral("; "));
}

} // namespace

class TestAnalysisPasses : public QObject {
    Q_OBJECT
private slots:
    // ---- G4.2: conv-like tensors, H->8, W->16, C->32 ----
    void convPadding() {
        ModelBuilder b;
        b.input("x", {1, 16, 7, 7});
        b.weight("w", {33, 16, 3, 3});
        conv(b, "conv", "x", "w", "y", 3);
        b.output("y");
        Run run = analyze(b, "pad_conv.onnx");

        const bpu::PaddedShape& y = run.tensor("y").padded;
        QVERIFY(y.applies);
        QCOMPARE(y.rule, bpu::PadRule::ConvLike);
        QCOMPARE(y.dims, (std::vector<int64_t>{1, 64, 8, 16}));
        QCOMPARE(y.elements, int64_t(33 * 7 * 7));        // 1617
        QCOMPARE(y.paddedElements, int64_t(64 * 8 * 16)); // 8192
        QCOMPARE(y.wasteBytes, int64_t(8192 - 1617));     // int8 on the BPU
        QVERIFY(std::abs(y.wasteRatio() - (1.0 - 1617.0 / 8192.0)) < 1e-12);
        QVERIFY(run.dimRule("y", 0).empty()); // batch untouched
        QVERIFY2(run.dimRule("y", 1).rfind("C 33->64", 0) == 0, run.dimRule("y", 1).c_str());
        QVERIFY2(run.dimRule("y", 2).rfind("H 7->8", 0) == 0, run.dimRule("y", 2).c_str());
        QVERIFY2(run.dimRule("y", 3).rfind("W 7->16", 0) == 0, run.dimRule("y", 3).c_str());

        // The conv's input is conv-like too: [1,16,7,7] -> [1,32,8,16].
        const bpu::PaddedShape& x = run.tensor("x").padded;
        QCOMPARE(x.dims, (std::vector<int64_t>{1, 32, 8, 16}));
        // Summary over both activations: waste (8192-1617) + (4096-784) of 8192 + 4096 padded bytes.
        QCOMPARE(run.r.summary.paddingWasteBytes, int64_t(6575 + 3312));
        QVERIFY(std::abs(run.r.summary.paddingWasteRatio - 9887.0 / 12288.0) < 1e-12);

        // MACs: real 1617 outputs x 16 in-channels x 9 taps; padded 8192 outputs x 32 (16 padded) x 9.
        QCOMPARE(run.node("conv").macs, int64_t(1617 * 16 * 9));
        QCOMPARE(run.node("conv").paddedMacs, int64_t(8192 * 32 * 9));

        // The JSON row shows the padded output shape and which rule padded which dim.
        const nlohmann::json j = bpu::analysisJson(run.g, s100(), run.r);
        const nlohmann::json& row = j["nodes"][0];
        QCOMPARE(row["padded_output_shape"], nlohmann::json({1, 64, 8, 16}));
        QCOMPARE(row["padding_rule"].get<std::string>(), std::string("G4.2"));
        QCOMPARE(row["padded_dims"].size(), size_t(3));
        QCOMPARE(row["padding_waste_bytes"].get<int64_t>(), int64_t(6575));

        // 80% waste > padding_finding_ratio 0.25: a G4.2 finding. (Issue
        // 13: findings group tensors by cause, so the tensor is one entry of evidence.tensors.)
        auto g42 = run.findings(bpu::RuleId::G4_2);
        auto it = std::find_if(g42.begin(), g42.end(), [](const bpu::Finding* f) {
            return f->evidence["tensors"][0]["tensor"] == "y";
        });
        QVERIFY(it != g42.end());
        QCOMPARE((*it)->evidence["padded_shape"].get<std::string>(), std::string("1x64x8x16"));
        // Aligning the padding away is an idealized what-if (the cost of the waste), never the fix.
        QVERIFY((*it)->fix.empty());
        QCOMPARE((*it)->whatIf.at(0)->toJson()["op"].get<std::string>(), std::string("assume_aligned"));
        // Its 33 channels are the model's output (y): not a width to tune, so no channel count is tried
        // (issue 48).
        QVERIFY((*it)->fixCandidates.empty());
    }

    // An image input (C <= alignment.input_c_max) is laid out by the runtime: C kept, H -> 16, W -> 32. Its
    // padding is advice of its own (low, no fix), never the feature-map G4.2 finding. The conv that reads it
    // packs C x taps into one reduction: 3 x 3 x 3 = 27 -> 32 per padded output element.
    void imageInputLayout() {
        ModelBuilder b;
        b.input("img", {1, 3, 64, 40});
        b.weight("w", {32, 3, 3, 3});
        conv(b, "conv", "img", "w", "y", 3);
        b.output("y");
        Run run = analyze(b, "image_input.onnx");
        const bpu::PaddedShape& in = run.tensor("img").padded;
        QCOMPARE(in.rule, bpu::PadRule::Input);
        QCOMPARE(in.dims, (std::vector<int64_t>{1, 3, 64, 64})); // W 40 -> 64 (x32); C and H as they are
        QVERIFY(run.dimRule("img", 1).empty() && run.dimRule("img", 2).empty());
        QVERIFY2(run.dimRule("img", 3).rfind("W 40->64 (x32, model input)", 0) == 0,
                 run.dimRule("img", 3).c_str());
        // y [1,32,64,40] pads to [1,32,64,48]: 32 x 64 x 48 = 98304 outputs x 32 (27 packed) = 3,145,728.
        QCOMPARE(run.node("conv").paddedMacs, int64_t(98304 * 32));
        QCOMPARE(run.node("conv").macs, int64_t(32 * 64 * 40 * 27));
        std::vector<const bpu::Finding*> onInput;
        for (const auto& f : run.r.findings)
            if (f.evidence.value("tensor", std::string()) == "img")
                onInput.push_back(&f);
        QCOMPARE(onInput.size(), size_t(1)); // 37.5% padding > padding_finding_ratio
        QCOMPARE(std::string(bpu::severityName(onInput[0]->severity)), std::string("low"));
        QVERIFY(onInput[0]->evidence["model_input"].get<bool>());
        QVERIFY(onInput[0]->fix.empty());
        QVERIFY2(onInput[0]->title.rfind("Model input 'img'", 0) == 0, onInput[0]->title.c_str());
    }

    void largeChannelsOnSmallMap() {
        // G4.3: [1,512,2,2] pads to [1,512,8,16]: 2048 of 65536 elements real, 97% padding.
        ModelBuilder b;
        b.input("x", {1, 512, 2, 2});
        b.weight("w", {512, 512, 1, 1});
        conv(b, "conv", "x", "w", "y", 1);
        b.output("y");
        Run run = analyze(b, "pad_g43.onnx");
        QCOMPARE(run.tensor("y").padded.dims, (std::vector<int64_t>{1, 512, 8, 16}));
        auto g43 = run.findings(bpu::RuleId::G4_3);
        QVERIFY(!g43.empty());
        QVERIFY(std::abs(g43[0]->evidence["waste_ratio"].get<double>() - (1.0 - 2048.0 / 65536.0)) < 1e-12);
        QVERIFY(run.findings(bpu::RuleId::G4_2).empty());
    }

    void convLayoutFlowsThroughActivations() {
        // YOLO's SiLU: conv -> Sigmoid -> Mul(conv, sigmoid), then Concat with the conv output. The
        // activation and the Concat keep the conv's NCHW layout: [1,256,20,20] pads to [1,256,24,32] (H x8, W
        // x16) all along, never by G4.1 to [1,256,32,32].
        ModelBuilder b;
        b.input("x", {1, 256, 20, 20});
        b.weight("w", {256, 256, 1, 1});
        conv(b, "conv", "x", "w", "c", 1);
        b.node("Sigmoid", {"c"}, {"s"}, "sigmoid");
        b.node("Mul", {"c", "s"}, {"m"}, "mul");
        fixtures::setInt(b.node("Concat", {"m", "c"}, {"y"}, "concat"), "axis", 1);
        b.output("y");
        Run run = analyze(b, "conv_layout.onnx");
        for (const char* t : {"c", "s", "m"}) {
            QCOMPARE(run.tensor(t).padded.rule, bpu::PadRule::ConvLike);
            QCOMPARE(run.tensor(t).padded.dims, (std::vector<int64_t>{1, 256, 24, 32}));
        }
        QCOMPARE(run.tensor("y").padded.dims, (std::vector<int64_t>{1, 512, 24, 32}));
        QVERIFY(run.findings(bpu::RuleId::G4_1).empty());
    }

    void depthwisePaddedMacs() {
        // Depthwise 144 ch: the output pads C 144->160, W stays 16, H 8: 160 x 8 x 16 = 20480 padded outputs,
        // each still reads one input channel x 9 taps. Real MACs 144 x 128 x 9.
        ModelBuilder b;
        b.input("x", {1, 144, 8, 16});
        b.weight("w", {144, 1, 3, 3});
        conv(b, "dw", "x", "w", "y", 3, 144);
        b.output("y");
        Run run = analyze(b, "pad_dw.onnx");
        QCOMPARE(run.tensor("y").padded.dims, (std::vector<int64_t>{1, 160, 8, 16}));
        QCOMPARE(run.node("dw").macs, int64_t(144 * 128 * 9));
        QCOMPARE(run.node("dw").paddedMacs, int64_t(20480 * 1 * 9));
    }

    void groupedPaddedMacs() {
        // groups=2, 64 -> 64 channels on [1,64,8,16]: nothing to pad, each group reads 32 channels x 9 taps.
        ModelBuilder b;
        b.input("x", {1, 64, 8, 16});
        b.weight("w", {64, 32, 3, 3});
        conv(b, "gconv", "x", "w", "y", 3, 2);
        b.output("y");
        Run run = analyze(b, "pad_group.onnx");
        QCOMPARE(run.node("gconv").macs, int64_t(64 * 128 * 32 * 9));
        QCOMPARE(run.node("gconv").paddedMacs, int64_t(64 * 128 * 32 * 9));
    }

    // Issue 62: a grouped conv (1 < group < C_in) is priced per padded MAC at dense_conv_efficiency, like a
    // dense conv (no calibration row has one; the depthwise rate would lend it 2.7x the dense throughput);
    // group_conv_efficiency prices a depthwise conv (group == C_in) alone. The expected times follow from
    // the padded MACs above and the profile's published peak and its two efficiencies.
    void groupedConvRate() {
        ModelBuilder b;
        b.input("x", {1, 64, 8, 16});
        b.weight("wg", {64, 32, 3, 3});
        conv(b, "gconv", "x", "wg", "g", 3, 2);
        b.weight("wd", {64, 1, 3, 3});
        conv(b, "dw", "g", "wd", "y", 3, 64);
        b.output("y");
        Run run = analyze(b, "rate_group.onnx");
        const bpu::TargetProfile& t = s100();
        const double peak = t.peakInt8Tops.value * 1e12 / 2;
        const bpu::NodeAnalysis& g = run.node("gconv");
        const bpu::NodeAnalysis& d = run.node("dw");
        QCOMPARE(g.paddedMacs, int64_t(64 * 128 * 32 * 9));
        QCOMPARE(d.paddedMacs, int64_t(64 * 128 * 9));
        QVERIFY(std::abs(g.computeUs - 64.0 * 128 * 32 * 9 / (peak * t.denseConvEfficiency.value) * 1e6) <
                1e-9);
        QVERIFY(std::abs(d.computeUs - 64.0 * 128 * 9 / (peak * t.groupConvEfficiency.value) * 1e6) < 1e-9);
        // The inspector explains each with the key that priced it.
        QVERIFY(bpu::isDepthwiseConv(run.g, run.g.node(run.g.findNode("dw"))));
        QVERIFY(!bpu::isDepthwiseConv(run.g, run.g.node(run.g.findNode("gconv"))));
    }

    // A MatMul-like op's padded MACs grow with its output's padding and with K aligned by the general rule
    // (G4.1: multiples of 16 at or above 16). K = 100 -> 112 in each case below; the output [.., 10, 24]
    // pads 10 -> 16 where it is not the first dim, 24 -> 32.
    void matmulPaddedMacs() {
        ModelBuilder b;
        b.input("a", {1, 10, 100});
        b.weight("wb", {100, 24});
        b.node("MatMul", {"a", "wb"}, {"mm_y"}, "mm");
        // Gemm with transA: A is [K, M] = [100, 10], so K is A's first dim (its last, 10, would pad to 16).
        b.input("at", {100, 10});
        auto& gemm = b.node("Gemm", {"at", "wb"}, {"gemm_y"}, "gemm");
        auto* transA = gemm.add_attribute();
        transA->set_name("transA");
        transA->set_type(onnx::AttributeProto::INT);
        transA->set_i(1);
        // An Einsum that lowers to a MatMul contracts k = 100.
        auto& ein = b.node("Einsum", {"a", "wb"}, {"ein_y"}, "ein");
        auto* eq = ein.add_attribute();
        eq->set_name("equation");
        eq->set_type(onnx::AttributeProto::STRING);
        eq->set_s("bik,kj->bij");
        for (const char* y : {"mm_y", "gemm_y", "ein_y"})
            b.output(y);
        Run run = analyze(b, "pad_matmul.onnx");
        // [1,10,24] -> [1,16,32]: 512 padded of 240 outputs, each summing 112 padded products.
        for (const char* n : {"mm", "ein"}) {
            QCOMPARE(run.node(n).placement, bpu::Placement::BPU);
            QCOMPARE(run.node(n).macs, int64_t(240 * 100));
            QCOMPARE(run.node(n).paddedMacs, int64_t(512 * 112));
        }
        // [10,24] -> [10,32] (the first dim is kept): 320 padded outputs x 112.
        QCOMPARE(run.node("gemm").macs, int64_t(240 * 100));
        QCOMPARE(run.node("gemm").paddedMacs, int64_t(320 * 112));
    }

    // ---- G4.1: general tensors, each dim (but batch) to a power of two up to 16, then multiples of 16 ----
    void generalPadding() {
        ModelBuilder b;
        b.input("a", {1, 3, 5});
        b.input("c", {1, 100, 20});
        b.input("e", {1, 16, 32});
        b.node("Sigmoid", {"a"}, {"a_out"}, "sig_a");
        b.node("Sigmoid", {"c"}, {"c_out"}, "sig_c");
        b.node("Sigmoid", {"e"}, {"e_out"}, "sig_e");
        b.output("a_out");
        b.output("c_out");
        b.output("e_out");
        Run run = analyze(b, "pad_general.onnx");

        // [1,3,5]: 3 -> 4, 5 -> 8 (powers of two below the unit); 15 of 32 elements real.
        const bpu::PaddedShape& a = run.tensor("a_out").padded;
        QCOMPARE(a.rule, bpu::PadRule::General);
        QCOMPARE(a.dims, (std::vector<int64_t>{1, 4, 8}));
        QVERIFY(std::abs(a.wasteRatio() - (1.0 - 15.0 / 32.0)) < 1e-12);
        QVERIFY(run.dimRule("a_out", 0).empty());
        QVERIFY2(run.dimRule("a_out", 1).rfind("d1 3->4", 0) == 0, run.dimRule("a_out", 1).c_str());
        QVERIFY2(run.dimRule("a_out", 2).rfind("d2 5->8", 0) == 0, run.dimRule("a_out", 2).c_str());
        QCOMPARE(run.tensor("a").padded.dims, (std::vector<int64_t>{1, 4, 8}));

        // [1,100,20]: at or above the unit, multiples of 16: 100 -> 112, 20 -> 32.
        const bpu::PaddedShape& c = run.tensor("c_out").padded;
        QCOMPARE(c.dims, (std::vector<int64_t>{1, 112, 32}));
        QCOMPARE(c.wasteBytes, int64_t(112 * 32 - 2000));
        QVERIFY2(run.dimRule("c_out", 1).rfind("d1 100->112", 0) == 0, run.dimRule("c_out", 1).c_str());
        QVERIFY2(run.dimRule("c_out", 2).rfind("d2 20->32", 0) == 0, run.dimRule("c_out", 2).c_str());

        // Already aligned: untouched.
        const bpu::PaddedShape& e = run.tensor("e_out").padded;
        QCOMPARE(e.dims, (std::vector<int64_t>{1, 16, 32}));
        QCOMPARE(e.wasteBytes, int64_t(0));
        QVERIFY(
            bpu::dimPadRules(e, run.g.tensor(run.tensorId("e_out")).shape.dims, s100().alignment).empty());
    }

    // The what-if options name nodes and tensors; exactly those change, and a name the model lacks (an edit
    // list written for another export) changes nothing.
    void whatIfOptionsByName() {
        ModelBuilder b;
        b.input("a", {1, 100, 20});
        b.node("Sigmoid", {"a"}, {"b"}, "sig_b");
        b.node("Sigmoid", {"b"}, {"c"}, "sig_c");
        b.node("Sigmoid", {"c"}, {"d"}, "sig_d");
        b.output("d");
        bpu::AnalysisOptions o = floatIo();
        o.assumeRemoved = {"sig_c", "no_such_node", "c"};
        o.assumeAligned = {"b", "no_such_tensor", "sig_d"};
        Run run = analyze(b, "whatif_names.onnx", s100(), o);
        QVERIFY(run.node("sig_c").assumedFree);
        QCOMPARE(run.node("sig_c").computeUs + run.node("sig_c").memoryUs, 0.0);
        QVERIFY(!run.node("sig_b").assumedFree && !run.node("sig_d").assumedFree);
        QVERIFY(run.node("sig_b").computeUs > 0);
        // Aligned by the user: [1,100,20] stays; the others pad 100 -> 112, 20 -> 32 (G4.1).
        QCOMPARE(run.tensor("b").padded.dims, (std::vector<int64_t>{1, 100, 20}));
        QCOMPARE(run.tensor("c").padded.dims, (std::vector<int64_t>{1, 112, 32}));
        QCOMPARE(run.tensor("d").padded.dims, (std::vector<int64_t>{1, 112, 32}));
    }

    // Nodes placed by one operator-table row hold its reason once between them (SharedText), not a copy
    // each: at 100k nodes the copies were rewritten on every re-analysis. A composed reason is its own.
    void placementReasonIsShared() {
        ModelBuilder b;
        b.input("a", {1, 16, 32});
        b.node("Sigmoid", {"a"}, {"b"}, "sig_b");
        b.node("Sigmoid", {"b"}, {"c"}, "sig_c");
        b.node("Foo", {"c"}, {"d"}, "foo");
        b.output("d");
        Run run = analyze(b, "shared_reason.onnx");
        const bpu::SharedText &b1 = run.node("sig_b").placementReason,
                              &c1 = run.node("sig_c").placementReason;
        QVERIFY(b1.startsWith("in the operator table ("));
        QCOMPARE(&b1.str(), &c1.str());
        QCOMPARE(run.node("foo").placementReason.str(), std::string("not in the operator table"));
        QVERIFY(&run.node("foo").placementReason.str() != &b1.str());
        // A copy of the result (a what-if snapshot) shares it too.
        const bpu::AnalysisResult copy = run.r;
        QCOMPARE(&copy.nodes[run.nodeId("sig_b").value].placementReason.str(), &b1.str());
    }

    // ---- G1.2 / G1.1: a CPU op splits the BPU graph; every CPU<->BPU edge costs a pass ----
    void topkSplitsSegments() {
        ModelBuilder b;
        b.input("x", {1, 8, 16, 16});
        b.weight("w1", {8, 8, 1, 1});
        b.weight("w2", {8, 8, 1, 1});
        b.ints("k", {4});
        conv(b, "conv1", "x", "w1", "a", 1);
        b.node("TopK", {"a", "k"}, {"v", "idx"}, "topk"); // along W: [1,8,16,4]
        conv(b, "conv2", "v", "w2", "y", 1);
        b.output("y");
        Run run = analyze(b, "topk.onnx");

        QCOMPARE(run.placement("conv1"), std::string("BPU"));
        QCOMPARE(run.placement("topk"), std::string("CPU"));
        QVERIFY(run.node("topk").placementReason.str().find("CPU operator") != std::string::npos);
        QCOMPARE(run.placement("conv2"), std::string("BPU"));
        QCOMPARE(run.r.summary.bpuSegments, 2);
        QCOMPARE(run.node("conv1").segment, 0);
        QCOMPARE(run.node("conv2").segment, 1);
        QCOMPARE(run.node("topk").segment, -1);
        QCOMPARE(run.r.summary.bpuNodes, 2);
        QCOMPARE(run.r.summary.cpuNodes, 1);
        // Handed to and from the CPU in DDR: conv1 reads the input image at its real size (8x16x16 int8; the
        // runtime pads only its stride), writes a padded (C 8->32: 32x16x16) and loads its 64 weight bytes;
        // conv2 reads v (C 8->32, W 4->16: 32x16x16) and writes y (same).
        QVERIFY(run.tensor("a").spillsToDdr);
        QVERIFY(run.tensor("v").spillsToDdr);
        QCOMPARE(run.node("conv1").ddrBytes, int64_t(2048 + 8192 + 64));
        QCOMPARE(run.node("conv2").ddrBytes, int64_t(8192 + 8192 + 64));

        // Passes: quantize the input (8x16x16 = 2048), dequantize conv1's output for TopK (2048), quantize
        // TopK's values for conv2 (8x16x4 = 512), dequantize the model output (512). No explicit Q/DQ nodes.
        QCOMPARE(run.r.summary.qdqNodes, 0);
        QCOMPARE(run.r.summary.qdqPasses, 4);
        QCOMPARE(run.r.summary.qdqElements, int64_t(2048 + 2048 + 512 + 512));
        QVERIFY2(hasPass(run, "x", "quantize", "model input", 2048), qPrintable(passesText(run)));
        QVERIFY2(hasPass(run, "a", "dequantize", "BPU->CPU", 2048), qPrintable(passesText(run)));
        QVERIFY2(hasPass(run, "v", "quantize", "CPU->BPU", 512), qPrintable(passesText(run)));
        QVERIFY2(hasPass(run, "y", "dequantize", "model output", 512), qPrintable(passesText(run)));

        auto g12 = run.findings(bpu::RuleId::G1_2);
        QCOMPARE(g12.size(), size_t(1));
        QCOMPARE(std::string(bpu::severityName(g12[0]->severity)),
                 std::string("high")); // it splits the BPU graph
        QCOMPARE(g12[0]->evidence["bpu_segments"].get<int>(), 2);
        auto g11 = run.findings(bpu::RuleId::G1_1);
        auto edge = std::find_if(g11.begin(), g11.end(), [](const bpu::Finding* f) {
            return f->title.find("CPU<->BPU") != std::string::npos;
        });
        QVERIFY(edge != g11.end());
        QCOMPARE((*edge)->evidence["elements"].get<int64_t>(), int64_t(2048 + 512));
    }

    void unknownOpAndOverride() {
        ModelBuilder b;
        b.input("x", {1, 8, 16, 16});
        b.weight("w1", {8, 8, 1, 1});
        b.weight("w2", {8, 8, 1, 1});
        conv(b, "conv1", "x", "w1", "a", 1);
        b.node("FooBar", {"a"}, {"f"}, "foo");
        valueInfo(b, "f", {1, 8, 16, 16}); // the file declares it, so conv2 still has a shape
        conv(b, "conv2", "f", "w2", "y", 1);
        b.output("y");
        Run run = analyze(b, "unknown.onnx");
        QCOMPARE(run.placement("foo"), std::string("CPU"));
        QCOMPARE(run.node("foo").placementReason.str(), std::string("not in the operator table"));
        QCOMPARE(std::string(bpu::opClassName(run.node("foo").opClass)), std::string("unknown"));
        QCOMPARE(run.r.summary.unknownOps, 1);
        QVERIFY(std::any_of(run.r.diagnostics.begin(), run.r.diagnostics.end(), [](const bpu::Diagnostic& d) {
            return d.code == bpu::DiagCode::UnknownOperator && d.text.find("'foo'") != std::string::npos &&
                   d.text.find("not in the operator table") != std::string::npos;
        }));
        QCOMPARE(run.placement("conv2"), std::string("BPU"));
        QCOMPARE(run.r.summary.bpuSegments, 2);

        // The user knows better: FooBar runs on the BPU, the graph is one segment, the edge passes disappear.
        bpu::AnalysisOptions o = floatIo();
        o.placementOverrides["foo"] = bpu::Placement::BPU;
        Run over = analyze(b, "unknown_override.onnx", s100(), o);
        QCOMPARE(over.placement("foo"), std::string("BPU"));
        QVERIFY(over.node("foo").placementOverridden);
        QVERIFY(over.node("foo").placementReason.str().find("user") != std::string::npos);
        QCOMPARE(over.r.summary.bpuSegments, 1);
        QCOMPARE(over.r.summary.qdqPasses, 2); // model input and output only
        QCOMPARE(over.r.summary.cpuNodes, 0);
    }

    void customDomainOp() {
        ModelBuilder b;
        auto* op = b.proto().add_opset_import();
        op->set_domain("com.acme");
        op->set_version(1);
        b.input("x", {1, 8, 16, 16});
        b.node("Fancy", {"x"}, {"y"}, "fancy").set_domain("com.acme");
        b.output("y");
        Run run = analyze(b, "custom_domain.onnx");
        QCOMPARE(run.placement("fancy"), std::string("CPU"));
        QVERIFY(run.node("fancy").placementReason.str().find("not in the operator table") !=
                std::string::npos);
        QVERIFY(run.node("fancy").placementReason.str().find("com.acme") != std::string::npos);
        QCOMPARE(run.r.summary.unknownOps, 1);
        QVERIFY(!run.r.diagnostics.empty());
    }

    void reduceAxisLimit() {
        ModelBuilder b;
        b.input("big", {1, 70000});
        b.input("wide", {1, 300, 300});
        b.input("ok", {1, 1000, 60});
        b.input("am_big", {1, 40000});
        b.input("am_ok", {1, 30000});
        b.ints("ax1", {1});
        b.ints("ax12", {1, 2});
        b.node("ReduceSum", {"big", "ax1"}, {"r_big"}, "sum_big");
        b.node("ReduceSum", {"wide", "ax12"}, {"r_wide"}, "sum_wide");
        b.node("ReduceSum", {"ok", "ax1"}, {"r_ok"}, "sum_ok");
        fixtures::setInt(b.node("ArgMax", {"am_big"}, {"i_big"}, "argmax_big"), "axis", 1);
        fixtures::setInt(b.node("ArgMax", {"am_ok"}, {"i_ok"}, "argmax_ok"), "axis", 1);
        for (const char* o : {"r_big", "r_wide", "r_ok", "i_big", "i_ok"})
            b.output(o, std::string(o).rfind("i_", 0) == 0 ? onnx::TensorProto::INT64
                                                           : onnx::TensorProto::FLOAT);
        Run run = analyze(b, "reduce.onnx");
        // One axis of 70000 > 65535.
        QCOMPARE(run.placement("sum_big"), std::string("CPU"));
        QVERIFY2(run.node("sum_big").placementReason.str().find(
                     "reduced axis 1 has 70000 elements (limit 65535)") != std::string::npos,
                 run.node("sum_big").placementReason.str().c_str());
        // Two axes of 300: each fits, 90000 reduced elements do not.
        QCOMPARE(run.placement("sum_wide"), std::string("CPU"));
        QVERIFY2(run.node("sum_wide").placementReason.str().find("reduces 90000 elements") !=
                     std::string::npos,
                 run.node("sum_wide").placementReason.str().c_str());
        QCOMPARE(run.placement("sum_ok"), std::string("BPU"));
        // ArgMax: axis limit 32767.
        QCOMPARE(run.placement("argmax_big"), std::string("CPU"));
        QCOMPARE(run.placement("argmax_ok"), std::string("BPU"));
    }

    // ---- G3: Conv [+BN] [+Add] [+Relu|Clip(0,6)] ----
    void convBnReluFuses() {
        ModelBuilder b;
        b.input("x", {1, 16, 8, 16});
        b.weight("w", {32, 16, 3, 3});
        for (const char* p : {"scale", "bias", "mean", "var"})
            b.weight(p, {32});
        conv(b, "conv", "x", "w", "c", 3);
        b.node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"bn"}, "bn");
        b.node("Relu", {"bn"}, {"y"}, "relu");
        b.output("y");
        Run run = analyze(b, "fuse_cbr.onnx");
        QCOMPARE(run.r.groups.size(), size_t(1));
        const bpu::FusedGroup& grp = run.r.groups[0];
        QCOMPARE(grp.pattern, std::string("Conv+BatchNormalization+Relu"));
        QVERIFY(grp.fused);
        QCOMPARE(grp.nodes,
                 (std::vector<bpu::NodeId>{run.nodeId("conv"), run.nodeId("bn"), run.nodeId("relu")}));
        for (const char* n : {"conv", "bn", "relu"})
            QCOMPARE(run.node(n).fusionGroup, grp.id);
        QCOMPARE(run.r.summary.fusedGroups, 1);
        QCOMPARE(run.r.summary.missedFusions, 0);
        QCOMPARE(run.placement("bn"), std::string("folded"));
        QCOMPARE(run.placement("relu"), std::string("folded"));
        // Inside the group nothing is written out: the conv writes 0 bytes, Relu writes y (32x8x16 int8).
        QCOMPARE(run.node("conv").outputBytes, int64_t(0));
        QCOMPARE(run.node("relu").inputBytes, int64_t(0));
        QCOMPARE(run.node("relu").outputBytes, int64_t(32 * 8 * 16));
        QVERIFY(run.findings(bpu::RuleId::G3).empty());
    }

    void secondConsumerBlocksFusion() {
        ModelBuilder b;
        b.input("x", {1, 16, 8, 16});
        b.weight("w", {32, 16, 3, 3});
        for (const char* p : {"scale", "bias", "mean", "var"})
            b.weight(p, {32});
        conv(b, "conv", "x", "w", "c", 3);
        b.node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"bn"}, "bn");
        b.node("Relu", {"bn"}, {"y"}, "relu");
        b.node("Sigmoid", {"c"}, {"z"}, "side"); // the conv output is needed outside the chain
        b.output("y");
        b.output("z");
        Run run = analyze(b, "fuse_two_consumers.onnx");
        QVERIFY(std::none_of(run.r.groups.begin(), run.r.groups.end(), [&](const bpu::FusedGroup& g) {
            return g.nodes.front() == run.nodeId("conv");
        }));
        QVERIFY(!run.node("conv").fusionGroup.valid());
        QCOMPARE(run.r.missed.size(), size_t(1));
        QCOMPARE(run.r.missed[0].nodes, (std::vector<bpu::NodeId>{run.nodeId("conv"), run.nodeId("bn")}));
        QVERIFY2(run.r.missed[0].reason.find("intermediate tensor 'c' has 2 consumers") != std::string::npos,
                 run.r.missed[0].reason.c_str());
        auto g3 = run.findings(bpu::RuleId::G3);
        QCOMPARE(g3.size(), size_t(1));
        QVERIFY2(g3[0]->title.find("Conv -> BatchNormalization") != std::string::npos, g3[0]->title.c_str());
        QCOMPARE(g3[0]->evidence["reason"].get<std::string>(), run.r.missed[0].reason);
    }

    void addOperandOrder() {
        // Residual block: Add(conv(x), x) fuses; Add(x, conv(x)) does not (the Add's first input must come
        // from the fused conv).
        for (bool convFirst : {true, false}) {
            ModelBuilder b;
            b.input("x", {1, 16, 8, 16});
            b.weight("w", {16, 16, 3, 3});
            conv(b, "conv", "x", "w", "c", 3);
            if (convFirst)
                b.node("Add", {"c", "x"}, {"y"}, "add");
            else
                b.node("Add", {"x", "c"}, {"y"}, "add");
            b.output("y");
            Run run = analyze(b, convFirst ? "fuse_add.onnx" : "fuse_add_swapped.onnx");
            if (convFirst) {
                QCOMPARE(run.r.groups.size(), size_t(1));
                QCOMPARE(run.r.groups[0].pattern, std::string("Conv+Add"));
                QVERIFY(run.r.missed.empty());
            } else {
                QVERIFY(run.r.groups.empty());
                QCOMPARE(run.r.missed.size(), size_t(1));
                QCOMPARE(run.r.missed[0].nodes,
                         (std::vector<bpu::NodeId>{run.nodeId("conv"), run.nodeId("add")}));
                QVERIFY2(run.r.missed[0].reason.find("the Add's first input is not from the fused Conv") !=
                             std::string::npos,
                         run.r.missed[0].reason.c_str());
                // Issue 13: operand order means nothing to the compiler in an ONNX graph, so no G3 advice
                // to swap them (the cost still charges the Add as its own layer, as calibrated).
                QVERIFY(run.findings(bpu::RuleId::G3).empty());
            }
        }
    }

    void nextBlocksShortcutIsNotAStage() {
        // MobileNetV2-style: block 1 ends in conv_a; block 2 computes conv_b(t) and adds its own input t as
        // the shortcut. The Add needs conv_b's output, so it can never join conv_a's chain: no missed fusion
        // at conv_a. Written Add(t, conv_b) it is conv_b's missed fusion (operand order), Add(conv_b, t)
        // fuses.
        for (bool convFirst : {false, true}) {
            ModelBuilder b;
            b.input("x", {1, 16, 8, 16});
            b.weight("wa", {16, 16, 3, 3});
            b.weight("wb", {16, 16, 3, 3});
            conv(b, "conv_a", "x", "wa", "t", 3);
            conv(b, "conv_b", "t", "wb", "u", 3);
            if (convFirst)
                b.node("Add", {"u", "t"}, {"y"}, "add");
            else
                b.node("Add", {"t", "u"}, {"y"}, "add");
            b.output("y");
            Run run = analyze(b, convFirst ? "next_block_fuses.onnx" : "next_block_swapped.onnx");
            for (const auto& m : run.r.missed)
                QVERIFY2(m.nodes.front() != run.nodeId("conv_a"), m.reason.c_str());
            if (convFirst) {
                QCOMPARE(run.r.groups.size(), size_t(1));
                QCOMPARE(run.r.groups[0].nodes,
                         (std::vector<bpu::NodeId>{run.nodeId("conv_b"), run.nodeId("add")}));
                QVERIFY(run.r.missed.empty());
            } else {
                QVERIFY(run.r.groups.empty());
                QCOMPARE(run.r.missed.size(), size_t(1));
                QCOMPARE(run.r.missed[0].nodes,
                         (std::vector<bpu::NodeId>{run.nodeId("conv_b"), run.nodeId("add")}));
                QVERIFY(run.r.missed[0].reason.find("first input") != std::string::npos);
            }
        }
    }

    void shapeReadsAreNotUses() {
        // Shape(c) reads only c's static shape (folded at compile time): it neither blocks Conv+Relu nor
        // keeps c alive. c -> Relu -> 15 Sigmoids -> Reshape(.., Shape(c)).
        ModelBuilder b;
        b.input("x", {1, 16, 8, 16});
        b.weight("w", {16, 16, 3, 3});
        conv(b, "conv", "x", "w", "c", 3);
        b.node("Relu", {"c"}, {"t0"}, "relu");
        std::string prev = "t0";
        for (int i = 1; i <= 15; ++i) {
            const std::string out = "t" + std::to_string(i);
            b.node("Sigmoid", {prev}, {out}, "sig" + std::to_string(i));
            prev = out;
        }
        b.node("Shape", {"c"}, {"c_shape"}, "shape");
        b.node("Reshape", {prev, "c_shape"}, {"y"}, "reshape");
        b.output("y");
        Run run = analyze(b, "shape_reads.onnx");
        QCOMPARE(run.placement("shape"), std::string("folded"));
        QCOMPARE(run.r.groups.size(), size_t(1));
        QCOMPARE(run.r.groups[0].pattern, std::string("Conv+Relu"));
        QVERIFY(run.r.missed.empty());
        QCOMPARE(run.tensor("c").liveSteps, 1);
        QVERIFY(run.findings(bpu::RuleId::G6_4).empty());
    }

    void clipAsRelu6() {
        // Opset 13: Clip's bounds are inputs; opset 10: attributes.
        struct Case {
            int opset;
            float hi;
            bool fuses;
        };
        for (Case cs :
             {Case{13, 6.f, true}, Case{13, 4.f, false}, Case{10, 6.f, true}, Case{10, 4.f, false}}) {
            ModelBuilder b(cs.opset);
            b.input("x", {1, 16, 8, 16});
            b.weight("w", {16, 16, 3, 3});
            conv(b, "conv", "x", "w", "c", 3);
            if (cs.opset >= 11) {
                floats(b, "lo", {0.f});
                floats(b, "hi", {cs.hi});
                b.node("Clip", {"c", "lo", "hi"}, {"y"}, "clip");
            } else {
                auto& clip = b.node("Clip", {"c"}, {"y"}, "clip");
                fixtures::setFloat(clip, "min", 0.f);
                fixtures::setFloat(clip, "max", cs.hi);
            }
            b.output("y");
            Run run =
                analyze(b, "clip_" + std::to_string(cs.opset) + "_" + std::to_string(int(cs.hi)) + ".onnx");
            const QByteArray tag = QByteArray("opset ") + QByteArray::number(cs.opset) + " max " +
                                   QByteArray::number(double(cs.hi));
            if (cs.fuses) {
                QVERIFY2(run.r.groups.size() == 1, tag.constData());
                QCOMPARE(run.r.groups[0].pattern, std::string("Conv+Clip"));
                QVERIFY2(run.r.missed.empty(), tag.constData());
            } else {
                QVERIFY2(run.r.groups.empty(), tag.constData());
                QVERIFY2(run.r.missed.size() == 1, tag.constData());
                QVERIFY2(run.r.missed[0].reason.find("Clip is not ReLU6") != std::string::npos,
                         run.r.missed[0].reason.c_str());
            }
        }
    }

    void sharedModules() {
        // ONNX shows a module called from several places only through shared parameters. A conv whose weight
        // is shared still fuses at each call site; a BatchNormalization whose parameters are shared cannot
        // fold into any one conv, so its chains are missed fusions.
        ModelBuilder b;
        b.input("x", {1, 16, 8, 16});
        b.weight("w", {16, 16, 3, 3});
        conv(b, "conv_a", "x", "w", "a", 3);
        b.node("Relu", {"a"}, {"ra"}, "relu_a");
        conv(b, "conv_b", "ra", "w", "bb", 3);
        b.node("Relu", {"bb"}, {"y"}, "relu_b");
        b.output("y");
        Run run = analyze(b, "fuse_shared_conv.onnx");
        QCOMPARE(run.r.groups.size(), size_t(2));
        QVERIFY(run.r.missed.empty());

        ModelBuilder s;
        s.input("x", {1, 16, 8, 16});
        s.weight("wa", {16, 16, 3, 3});
        s.weight("wb", {16, 16, 3, 3});
        for (const char* p : {"scale", "bias", "mean", "var"})
            s.weight(p, {16});
        conv(s, "conv_a", "x", "wa", "a", 3);
        s.node("BatchNormalization", {"a", "scale", "bias", "mean", "var"}, {"na"}, "bn_a");
        conv(s, "conv_b", "na", "wb", "bb", 3);
        s.node("BatchNormalization", {"bb", "scale", "bias", "mean", "var"}, {"y"}, "bn_b");
        s.output("y");
        Run shared = analyze(s, "fuse_shared_bn.onnx");
        QVERIFY(shared.r.groups.empty());
        QCOMPARE(shared.r.missed.size(), size_t(2));
        for (const auto& m : shared.r.missed)
            QVERIFY2(m.reason.find("shared module") != std::string::npos, m.reason.c_str());
    }

    // ---- QDQ-format models ----
    void qdqFormatModel() {
        // x -Q-DQ-> conv1(DQ(w1)) -Q-DQ-> conv2(DQ(w2)) -Q-DQ-> y
        ModelBuilder b;
        b.input("x", {1, 8, 16, 16});
        floats(b, "s", {0.1f});
        int8Scalar(b, "zp");
        quantizedWeight(b, "w1", {8, 8, 3, 3});
        quantizedWeight(b, "w2", {8, 8, 3, 3});
        qdq(b, "in", "x", "x_dq");
        conv(b, "conv1", "x_dq", "w1", "c1", 3);
        qdq(b, "mid", "c1", "c1_dq");
        conv(b, "conv2", "c1_dq", "w2", "c2", 3);
        qdq(b, "out", "c2", "y");
        b.output("y");
        Run run = analyze(b, "qdq.onnx");

        QVERIFY(run.r.qdqFormat);
        QCOMPARE(run.placement("q_in"), std::string("CPU"));
        QVERIFY(run.node("q_in").placementReason.str().find("boundary quantize") != std::string::npos);
        QCOMPARE(run.placement("dq_in"), std::string("folded"));
        QCOMPARE(run.placement("dq_w1"), std::string("folded"));
        QVERIFY(run.node("dq_w1").placementReason.str().find("weight") != std::string::npos);
        QCOMPARE(run.placement("conv1"), std::string("BPU"));
        QCOMPARE(run.placement("q_mid"), std::string("folded"));
        QCOMPARE(run.placement("dq_mid"), std::string("folded"));
        QVERIFY(run.node("q_mid").placementReason.str().find("annotation") != std::string::npos);
        QCOMPARE(run.placement("conv2"), std::string("BPU"));
        QCOMPARE(run.placement("q_out"), std::string("folded"));
        QCOMPARE(run.placement("dq_out"), std::string("CPU"));
        QVERIFY(run.node("dq_out").placementReason.str().find("boundary dequantize") != std::string::npos);
        QCOMPARE(run.r.summary.bpuSegments, 1);

        // 8 explicit nodes (3 pairs + 2 weight DQs); only the two at the model's I/O cost a pass of 8x16x16.
        QCOMPARE(run.r.summary.qdqNodes, 8);
        QCOMPARE(run.r.summary.qdqPasses, 2);
        QCOMPARE(run.r.summary.qdqElements, int64_t(2 * 2048));
        QVERIFY2(hasPass(run, "x", "quantize", "model input", 2048), qPrintable(passesText(run)));
        QVERIFY2(hasPass(run, "out_q", "dequantize", "model output", 2048), qPrintable(passesText(run)));
        for (const auto& p : run.r.qdq)
            QVERIFY(p.node.valid()); // both are the explicit boundary nodes, none implicit

        // The dequantized weights are weights: int8 8x8x3x3 = 576 bytes, never padded as a feature map.
        QCOMPARE(run.node("conv1").weightBytes, int64_t(576));
        QCOMPARE(run.node("conv2").weightBytes, int64_t(576));
        QVERIFY(!run.tensor("w1").padded.applies);
        // conv1 reads x_dq (8x16x16 -> C 8->32: 32x16x16 int8), not the weights, as its input.
        QCOMPARE(run.node("conv1").inputBytes, int64_t(32 * 16 * 16));
        QCOMPARE(run.r.summary.bpuNodes, 2);
        QCOMPARE(run.r.summary.cpuNodes, 2);
        QCOMPARE(run.r.summary.foldedNodes, 6);
    }

    void floatKeptInQdqModel() {
        // conv2 consumes conv1's output with no Q/DQ pair around it: in a QDQ model it stays in float on the
        // CPU.
        ModelBuilder b;
        b.input("x", {1, 8, 16, 16});
        floats(b, "s", {0.1f});
        int8Scalar(b, "zp");
        quantizedWeight(b, "w1", {8, 8, 3, 3});
        b.weight("w2", {8, 8, 3, 3});
        qdq(b, "in", "x", "x_dq");
        conv(b, "conv1", "x_dq", "w1", "c1", 3);
        conv(b, "conv2", "c1", "w2", "y", 3);
        b.output("y");
        Run run = analyze(b, "qdq_float_kept.onnx");
        QCOMPARE(run.placement("conv1"), std::string("BPU"));
        QCOMPARE(run.placement("conv2"), std::string("CPU"));
        QVERIFY2(run.node("conv2").placementReason.str().rfind("float kept", 0) == 0,
                 run.node("conv2").placementReason.str().c_str());
        QCOMPARE(run.node("conv2").precision, bpu::Precision::Float);
        // float weights on the CPU: 8x8x3x3 x 4 bytes.
        QCOMPARE(run.node("conv2").weightBytes, int64_t(576 * 4));
        // Passes: the explicit input quantize and an implicit dequantize of c1 for the CPU conv.
        QCOMPARE(run.r.summary.qdqPasses, 2);
        QVERIFY2(hasPass(run, "x", "quantize", "model input", 2048), qPrintable(passesText(run)));
        QVERIFY2(hasPass(run, "c1", "dequantize", "BPU->CPU", 2048), qPrintable(passesText(run)));
        QCOMPARE(run.findings(bpu::RuleId::G1_2).size(), size_t(1));
    }

    // ---- G6.4: live ranges against the SRAM budget ----
    void longShortcutSpills() {
        bpu::TargetProfile small = s100();
        small.sramBudgetBytes.value = 1 << 20; // 1 MiB

        // 1x256x80x80 int8 = 1,638,400 bytes (no padding: 256 %32, 80 %8, 80 %16): bigger than 1 MiB by
        // itself.
        Run big = analyze(shortcutModel(256, 80, 80, 20), "shortcut_big.onnx", small);
        QCOMPARE(big.tensor("s").liveSteps, 20);
        QCOMPARE(big.tensor("s").paddedBytes, int64_t(256 * 80 * 80));
        QVERIFY(big.tensor("s").spillsToDdr);
        auto g64 = big.findings(bpu::RuleId::G6_4);
        QVERIFY(!g64.empty());
        QCOMPARE(g64[0]->evidence["tensor"].get<std::string>(), std::string("s"));
        QCOMPARE(g64[0]->evidence["live_steps"].get<int>(), 20);
        // Spilling is the rule's gate (checked on the tensor above), so it is no longer evidence.
        QVERIFY(!g64[0]->evidence.contains("spills_to_ddr"));
        QCOMPARE(g64[0]->evidence["sram_budget_bytes"].get<int64_t>(), int64_t(1 << 20));
        // s is bigger than the 1 MiB budget by itself, so it lives in DDR for both its readers: conv0 stores
        // it once, and each BPU consumer loads it once - sig1 (the next step) and the Add (step 20). Three
        // times its bytes cross DDR, as the cost engine charges them (it was stated as 2x, store plus the
        // Add's load, which left out sig1's load).
        QCOMPARE(g64[0]->evidence["ddr_bytes"].get<int64_t>(), int64_t(3 * 256 * 80 * 80));
        QCOMPARE(big.node("conv0").ddrStoreBytes, int64_t(256 * 80 * 80));
        // The Add reads the spilled shortcut back from DDR.
        QVERIFY(big.node("add").ddrBytes >= int64_t(256 * 80 * 80));

        // A small shortcut (1x16x8x16 = 2 KiB) lives as long but stays in SRAM: the guide's reason (a dump to
        // DDR) does not hold, so it is no finding (issue 13; it used to be a low one).
        Run tiny = analyze(shortcutModel(16, 8, 16, 20), "shortcut_small.onnx", small);
        QCOMPARE(tiny.tensor("s").liveSteps, 20);
        QVERIFY(!tiny.tensor("s").spillsToDdr);
        QVERIFY(tiny.findings(bpu::RuleId::G6_4).empty());

        // A short skip (5 steps <= shortcut_steps_limit 12) is not a finding.
        Run shortSkip = analyze(shortcutModel(16, 8, 16, 5), "shortcut_short.onnx", small);
        QVERIFY(shortSkip.findings(bpu::RuleId::G6_4).empty());
    }

    void beladyEvictsTheFurthestUse() {
        // Every tensor is 1x64x80x80 int8 = 409,600 bytes (400 KiB); the budget is 1 MiB, so two fit, three
        // do not. Tensors read within stream_window_steps (3) of their producer stream through SRAM tile by
        // tile and hold no space; s, t1 and t2 live longer:
        //   step 0 conv0 -> s  (read at 1 and 20)      step 1 sig1 -> t1 (read at 2 and 10)
        //   step 2 sig2 -> t2 (read at 3 and 12)       steps 3-9 sig3..sig9, step 10 add_u(t9, t1)
        //   step 11 sig11, step 12 add_v(t11, t2), steps 13-19 sig13..sig19, step 20 add(t19, s)
        // At step 2, s (next use 20), t1 (next use 2, read now) and the newcomer t2 (next use 3) need 1200
        // KiB: the one used furthest in the future - the shortcut s - is dumped to DDR; t1 and t2 stay on
        // chip.
        auto model = [] {
            ModelBuilder b;
            b.input("x", {1, 64, 80, 80});
            b.weight("w", {64, 64, 1, 1});
            conv(b, "conv0", "x", "w", "s", 1);
            b.node("Sigmoid", {"s"}, {"t1"}, "sig1");
            std::string prev = "t1";
            for (int i = 2; i <= 19; ++i) {
                const std::string out = "t" + std::to_string(i);
                if (i == 10)
                    b.node("Add", {prev, "t1"}, {out}, "add_u");
                else if (i == 12)
                    b.node("Add", {prev, "t2"}, {out}, "add_v");
                else
                    b.node("Sigmoid", {prev}, {out}, "sig" + std::to_string(i));
                prev = out;
            }
            b.node("Add", {prev, "s"}, {"y"}, "add");
            b.output("y");
            return b;
        };
        bpu::TargetProfile small = s100();
        small.sramBudgetBytes.value = 1 << 20;
        QCOMPARE(small.streamWindowSteps.value, 3.0);
        Run run = analyze(model(), "belady.onnx", small);
        QCOMPARE(run.tensor("s").liveSteps, 20);
        QCOMPARE(run.tensor("t1").liveSteps, 9);
        QCOMPARE(run.tensor("t2").liveSteps, 10);
        QVERIFY(run.tensor("s").spillsToDdr);
        QVERIFY(!run.tensor("t1").spillsToDdr);
        QVERIFY(!run.tensor("t2").spillsToDdr);
        for (int i = 3; i <= 19; ++i)
            QVERIFY(!run.tensor("t" + std::to_string(i)).spillsToDdr); // streamed
        // The final Add reads s back from DDR; add_u reads t1 from SRAM.
        QCOMPARE(run.node("add").ddrBytes, int64_t(409600 + 409600)); // s in, y (a model output) out
        QCOMPARE(run.node("add_u").ddrBytes, int64_t(0));

        // With the default 4 MiB budget the three fit: nothing spills but the model's I/O.
        Run roomy = analyze(model(), "belady_roomy.onnx");
        QVERIFY(!roomy.tensor("s").spillsToDdr);
        QVERIFY(roomy.tensor("x").spillsToDdr);
        QVERIFY(roomy.tensor("y").spillsToDdr);
    }

    void tensorReadNowIsNotEvicted() {
        // 400 KiB tensors, 1 MiB budget. a (read at 1 and 5), b (read at 2 and 6), d (read at 6 and 10):
        //   step 0 conv0 -> a, step 1 sig1 -> b, steps 2-4 sig2..sig4 (streamed), step 5 add_a(c4, a) -> d,
        //   step 6 add_b(d, b) -> e, steps 7-9 sig7..sig9, step 10 add_d(c9, d) -> y.
        // At step 5 add_a reads a for the last time while writing d: a must stay in SRAM for that read. b
        // (next use 6) and d (next use 6) tie, so the newcomer d goes to DDR.
        ModelBuilder b;
        b.input("x", {1, 64, 80, 80});
        b.weight("w", {64, 64, 1, 1});
        conv(b, "conv0", "x", "w", "a", 1);
        b.node("Sigmoid", {"a"}, {"b"}, "sig1");
        b.node("Sigmoid", {"b"}, {"c2"}, "sig2");
        b.node("Sigmoid", {"c2"}, {"c3"}, "sig3");
        b.node("Sigmoid", {"c3"}, {"c4"}, "sig4");
        b.node("Add", {"c4", "a"}, {"d"}, "add_a");
        b.node("Add", {"d", "b"}, {"e"}, "add_b");
        b.node("Sigmoid", {"e"}, {"c7"}, "sig7");
        b.node("Sigmoid", {"c7"}, {"c8"}, "sig8");
        b.node("Sigmoid", {"c8"}, {"c9"}, "sig9");
        b.node("Add", {"c9", "d"}, {"y"}, "add_d");
        b.output("y");
        bpu::TargetProfile small = s100();
        small.sramBudgetBytes.value = 1 << 20;
        Run run = analyze(b, "read_now.onnx", small);
        QCOMPARE(run.tensor("a").liveSteps, 5);
        QVERIFY(!run.tensor("a").spillsToDdr);
        QVERIFY(!run.tensor("b").spillsToDdr);
        QVERIFY(run.tensor("d").spillsToDdr);
        QCOMPARE(run.node("add_a").ddrBytes, int64_t(409600)); // writes d to DDR, reads a from SRAM
    }

    // ---- G6.6 / G6.5 / G6.1 advisors ----
    void transformChain() {
        // Reshape [1,16,8,16] -> [1,16,128]: dim 2 changes and one dim goes = 2; Transpose perm [0,2,1]: 2.
        ModelBuilder b;
        b.input("x", {1, 16, 8, 16});
        b.ints("shape", {1, 16, 128});
        b.node("Reshape", {"x", "shape"}, {"r"}, "reshape");
        fixtures::setInts(b.node("Transpose", {"r"}, {"y"}, "transpose"), "perm", {0, 2, 1});
        b.output("y");
        Run run = analyze(b, "transforms.onnx");
        auto g66 = run.findings(bpu::RuleId::G6_6);
        QCOMPARE(g66.size(), size_t(1));
        // (Issue 13: the title names the chain's shapes, the pattern repeated chains are grouped by.)
        QCOMPARE(
            g66[0]->title,
            std::string("Data-transform chain Reshape -> Transpose 1x16x8x16 -> 1x128x16 changes 4 dims"));
        QCOMPARE(g66[0]->evidence["changed_dims"].get<int>(), 4);
        QCOMPARE(g66[0]->evidence["steps"][0]["changed_dims"].get<int>(), 2);
        QCOMPARE(g66[0]->evidence["steps"][1]["changed_dims"].get<int>(), 2);
        QCOMPARE(g66[0]->evidence["elements_moved"].get<int64_t>(), int64_t(2 * 2048));
        QCOMPARE(std::string(bpu::severityName(g66[0]->severity)), std::string("medium"));
        QCOMPARE(g66[0]->nodes, (std::vector<bpu::NodeId>{run.nodeId("reshape"), run.nodeId("transpose")}));

        // The same chain in 60 branches is one finding: its evidence lists the first 50 occurrences and
        // counts them all; its nodes and its total name every one (a transformer repeats a chain per layer,
        // 3,600 times at 100k nodes).
        ModelBuilder many;
        many.input("x", {1, 16, 8, 16});
        many.ints("shape", {1, 16, 128});
        for (int i = 0; i < 60; ++i) {
            const std::string k = std::to_string(i);
            many.node("Reshape", {"x", "shape"}, {"r" + k}, "reshape" + k);
            fixtures::setInts(many.node("Transpose", {"r" + k}, {"y" + k}, "transpose" + k), "perm",
                              {0, 2, 1});
            many.output("y" + k);
        }
        Run repeated = analyze(many, "transforms60.onnx");
        auto rep = repeated.findings(bpu::RuleId::G6_6);
        QCOMPARE(rep.size(), size_t(1));
        QVERIFY2(rep[0]->title.find("(60 times)") != std::string::npos, rep[0]->title.c_str());
        QCOMPARE(rep[0]->evidence["occurrences"].size(), size_t(50));
        QCOMPARE(rep[0]->evidence["occurrences_total"].get<int>(), 60);
        QCOMPARE(rep[0]->evidence["elements_moved"].get<int64_t>(), int64_t(60 * 2 * 2048));
        QCOMPARE(rep[0]->nodes.size(), size_t(120));

        // A single Reshape: [1,16,8,16] -> [1,16,16,8] changes dims 2 and 3 (a low finding); appending a unit
        // dim ([1,16,8,16,1]) changes one and is not worth one.
        auto single = [](std::vector<int64_t> to, const std::string& file) {
            ModelBuilder one;
            one.input("x", {1, 16, 8, 16});
            one.ints("shape", to);
            one.node("Reshape", {"x", "shape"}, {"y"}, "reshape");
            one.output("y");
            return analyze(one, file);
        };
        Run two = single({1, 16, 16, 8}, "transform_two.onnx");
        QCOMPARE(two.findings(bpu::RuleId::G6_6).size(), size_t(1));
        QCOMPARE(two.findings(bpu::RuleId::G6_6)[0]->evidence["changed_dims"].get<int>(), 2);
        QCOMPARE(std::string(bpu::severityName(two.findings(bpu::RuleId::G6_6)[0]->severity)),
                 std::string("low"));
        QVERIFY(single({1, 16, 8, 16, 1}, "transform_one.onnx").findings(bpu::RuleId::G6_6).empty());
    }

    void channelShuffleChangedDims() {
        // ShuffleNet's channel shuffle: [1,232,7,7] -> [1,2,116,7,7] splits C (2 dims change; H and W stay),
        // Transpose [0,2,1,3,4] swaps two, the Reshape back merges two: 6.
        ModelBuilder b;
        b.input("x", {1, 232, 7, 7});
        b.ints("split", {1, 2, 116, 7, 7});
        b.ints("merge", {1, 232, 7, 7});
        b.node("Reshape", {"x", "split"}, {"r1"}, "reshape1");
        fixtures::setInts(b.node("Transpose", {"r1"}, {"r2"}, "transpose"), "perm", {0, 2, 1, 3, 4});
        b.node("Reshape", {"r2", "merge"}, {"y"}, "reshape2");
        b.output("y");
        Run run = analyze(b, "shuffle.onnx");
        auto g66 = run.findings(bpu::RuleId::G6_6);
        QCOMPARE(g66.size(), size_t(1));
        QCOMPARE(g66[0]->evidence["changed_dims"].get<int>(), 6);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(g66[0]->evidence["steps"][i]["changed_dims"].get<int>(), 2);
    }

    void batchModeForSmallInputs() {
        auto model = [](int64_t n, int64_t c, int64_t hw) {
            ModelBuilder b;
            b.input("x", {n, c, hw, hw});
            b.weight("w", {256, c, 3, 3});
            conv(b, "conv", "x", "w", "y", 3);
            b.output("y");
            return b;
        };
        // 256 -> 256 3x3 on 16x16: 589,824 weight bytes load in 589824 / (76.8 GB/s x 0.61) = 12.6 us,
        // against 256 x 256 x 9 x 256 = 151 M MACs in 151e6 / (40e12 x 0.371) = 10.2 us of compute: the
        // weight loads are most of the layer's time (the guide's reason for batching), far above
        // batch_weight_share_min.
        Run small = analyze(model(1, 256, 16), "g65_16.onnx");
        auto g65 = small.findings(bpu::RuleId::G6_5);
        QCOMPARE(g65.size(), size_t(1));
        QVERIFY2(g65[0]->title.rfind("Small input 1x256x16x16 at batch 1, weight loads ", 0) == 0,
                 g65[0]->title.c_str());
        QCOMPARE(g65[0]->evidence["small_input_max"].get<int64_t>(), int64_t(256));
        QCOMPARE(g65[0]->evidence["weight_bytes_per_inference"].get<int64_t>(), int64_t(256 * 256 * 3 * 3));
        const double share = g65[0]->evidence["weight_load_share"].get<double>();
        QVERIFY2(share > 0.5 && share < 1.0, std::to_string(share).c_str());
        QCOMPARE(g65[0]->fix.at(0)->toJson()["op"].get<std::string>(), std::string("set_batch"));
        QVERIFY(analyze(model(1, 256, 320), "g65_320.onnx").findings(bpu::RuleId::G6_5).empty());
        QVERIFY(analyze(model(4, 256, 16), "g65_b4.onnx").findings(bpu::RuleId::G6_5).empty());
        // Issue 13: a small input alone is not the reason. 3 -> 256 3x3 at 224x224 loads 6,912 weight bytes
        // (0.15 us) against 256 x 3 x 9 x 224 x 224 = 347 M MACs (23 us): batching would spread only the
        // per-inference overhead and delay every frame, so no finding.
        QVERIFY(analyze(model(1, 3, 224), "g65_224.onnx").findings(bpu::RuleId::G6_5).empty());
    }

    void groupConvAdvisor() {
        // 512 -> 512 3x3 on [1,512,8,16]: MACs 128 x 512 x 512 x 9 = 301,989,888 (nothing to pad).
        // compute: / (80 TOPS / 2 = 40e12 MAC/s x dense_conv_efficiency) = 12.6 us at 0.6, 20.6 us at the
        // calibrated 0.367. DDR: weights 512x512x9 = 2,359,296 B int8, plus the model input and output
        // (65,536 B each, they live in DDR) = 2,490,368 B / (76.8e9 x 0.61) = 53.16 us: memory-bound either
        // way.
        ModelBuilder b;
        b.input("x", {1, 512, 8, 16});
        b.weight("w", {512, 512, 3, 3});
        conv(b, "conv", "x", "w", "y", 3);
        b.output("y");
        Run run = analyze(b, "g61.onnx");
        const bpu::NodeAnalysis& a = run.node("conv");
        QCOMPARE(a.paddedMacs, int64_t(301989888));
        QCOMPARE(a.weightBytes, int64_t(2359296));
        QCOMPARE(a.ddrBytes, int64_t(2490368));
        const bpu::TargetProfile& t = s100();
        const double macsPerSecond = t.peakInt8Tops.value * 1e12 / 2 * t.denseConvEfficiency.value;
        const double ddrBytesPerSecond = t.ddrBandwidthGBs.value * 1e9 * t.ddrEffectiveFraction.value;
        QVERIFY(std::abs(a.computeUs - 301989888.0 / macsPerSecond * 1e6) < 1e-6);
        QVERIFY(std::abs(a.memoryUs - 2490368.0 / ddrBytesPerSecond * 1e6) < 1e-6);
        QVERIFY(a.memoryUs > 2 * a.computeUs);
        QCOMPARE(a.bound, bpu::Bound::Memory);
        QVERIFY(std::abs(a.intensity - 301989888.0 / 2490368.0) < 1e-9);
        QVERIFY(a.intensity < run.r.ridgeIntensity);

        auto g61 = run.findings(bpu::RuleId::G6_1);
        QCOMPARE(g61.size(), size_t(1));
        // 512/g must stay a multiple of 32: g = 2, 4, 8, 16 (512/32 = 16 is not).
        QCOMPARE(g61[0]->evidence["groups_keeping_alignment"], nlohmann::json({2, 4, 8, 16}));
        QCOMPARE(g61[0]->fix.at(0)->toJson()["group"].get<int>(), 2);
        // 2.25 MiB of weights >= large_weight_bytes (1 MiB): G6.3 would say "use group conv" too. One layer,
        // one recommendation: the G6.1 finding carries the large-weight evidence, no separate G6.3.
        QVERIFY(run.findings(bpu::RuleId::G6_3).empty());
        QCOMPARE(g61[0]->evidence["large_weights"]["weight_bytes"].get<int64_t>(), int64_t(2359296));
        QCOMPARE(g61[0]->evidence["large_weights"]["threshold_bytes"].get<int64_t>(), int64_t(1048576));

        // Below groupconv_min_channels (256): no G6.1 even when memory-bound.
        ModelBuilder narrow;
        narrow.input("x", {1, 128, 8, 16});
        narrow.weight("w", {128, 128, 3, 3});
        conv(narrow, "conv", "x", "w", "y", 3);
        narrow.output("y");
        Run n = analyze(narrow, "g61_narrow.onnx");
        QCOMPARE(n.node("conv").bound, bpu::Bound::Memory);
        QVERIFY(n.findings(bpu::RuleId::G6_1).empty());
    }
};

QTEST_GUILESS_MAIN(TestAnalysisPasses)
#include "tst_analysis_passes.moc"
