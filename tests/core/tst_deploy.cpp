// SPDX-License-Identifier: MIT
// Deployment settings (issue 11, docs/deployment.md): hb_compile's --fast-perf rule, float model I/O, real
// hb_compile YAML configs (tests/data/deploy, written from the documented keys), set_precision, and that the
// board figure differs from the float-I/O view by exactly the passes the deployment removes.
#include "OnnxFixtures.h"
#include "SampleFiles.h"
#include "TestPaths.h"

#include "core/analysis/AnalysisResult.h"
#include "core/deploy/DeployImport.h"
#include "core/deploy/DeployJson.h"
#include "core/deploy/DeployYaml.h"
#include "core/deploy/DeployYamlWriter.h"
#include "core/edit/Edit.h"
#include "core/edit/EditError.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/edit/UndoToken.h"
#include "core/io/ProjectJson.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QProcess>
#include <QtTest>

#include <cmath>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using samples::samplePath;

const std::string kData = bpu::test::testDataDir() + "/deploy/";

/// parseProject refuses `doc`, naming the file ("bad.bpuscope") and `key` (with what follows it, if given).
void expectRefused(const nlohmann::json& doc, const std::string& key) {
    try {
        bpu::parseProject(doc, "bad.bpuscope");
        QFAIL(qPrintable(QString::fromStdString("accepted, expected a refusal naming " + key)));
    } catch (const std::exception& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("bad.bpuscope") != std::string::npos && what.find(key) != std::string::npos,
                 e.what());
    }
}

std::shared_ptr<const bpu::TargetProfile> profile(const std::string& name) {
    return std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile(name));
}

bpu::Session session(const std::string& file, const bpu::DeploySettings& d,
                     const std::string& target = "s100") {
    bpu::AnalysisOptions o;
    o.deploy = d;
    return bpu::Session(bpu::ModelImporter::load(samplePath(file)), profile(target), o);
}

bool relClose(double a, double b, double rel) {
    return std::fabs(a - b) <= rel * std::max(std::fabs(a), std::fabs(b));
}

double rowsOf(const bpu::CostEstimate& e, bpu::CostRowKind k) {
    double us = 0;
    for (const auto& r : e.rows)
        us += r.kind == k ? r.us : 0;
    return us;
}

int countRows(const bpu::CostEstimate& e, bpu::CostRowKind k) {
    int n = 0;
    for (const auto& r : e.rows)
        n += r.kind == k;
    return n;
}

std::string errorOf(const std::string& path) {
    try {
        bpu::loadDeploy(path);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestDeploy : public QObject {
    Q_OBJECT

private slots:
    void fastPerfPicksNv12ForImages();
    void floatIoCostsItsPassesExactly();
    void yamlConfigNv12();
    void yamlFeaturemapKeepsPasses();
    void yamlNodeInfoPrecisionAndPlacement();
    void yamlErrorsNameFileAndKey();
    void removableBoundaryOpsAreRemoved();
    void setPrecisionWholeModelAndNodes();
    void setPrecisionRejectsNonsense();
    void jsonRoundTrip();
    void projectKeepsTheDeployment();
    void cliDeployOption();
    void yamlInputShapeAndBatch();
    void yamlInputShapeErrors();
    void yamlRunOnAndNameChecks();
    void projectKeepsEditsNotApplied();
    void yamlWriterRoundTrip();
    void yamlWriterQuotesAnyName();
};

// --fast-perf: a 4-D input with C=3 and even H/W is nv12; anything else a featuremap.
void TestDeploy::fastPerfPicksNv12ForImages() {
    const bpu::DeploySettings fp = bpu::DeploySettings::fastPerf();
    const bpu::Graph yolo = bpu::ModelImporter::load(samplePath("yolov8n.onnx"));
    QCOMPARE(bpu::resolveInput(fp, yolo, "images").type, bpu::InputRuntimeType::Nv12);
    QVERIFY(!bpu::resolveInput(fp, yolo, "images").quantizedOnCpu);

    fixtures::ModelBuilder odd;
    odd.input("x", {1, 3, 223, 224});
    odd.input("gray", {1, 1, 28, 28});
    odd.input("seq", {1, 3, 64});
    odd.weight("w", {8, 3, 3, 3});
    odd.weight("w1", {8, 1, 3, 3});
    odd.node("Conv", {"x", "w"}, {"y"});
    odd.node("Conv", {"gray", "w1"}, {"y1"});
    odd.node("Relu", {"seq"}, {"y2"});
    odd.output("y");
    odd.output("y1");
    odd.output("y2");
    const bpu::Graph g = bpu::ModelImporter::load(odd.save("deploy_inputs.onnx"));
    QCOMPARE(bpu::fastPerfInputType(g, "x"), bpu::InputRuntimeType::Featuremap);    // odd H
    QCOMPARE(bpu::fastPerfInputType(g, "gray"), bpu::InputRuntimeType::Featuremap); // C=1
    QCOMPARE(bpu::fastPerfInputType(g, "seq"), bpu::InputRuntimeType::Featuremap);  // 3-D
    // The description says why an image became a featuremap when an odd H or W is all it takes, and only
    // then (C=1 and 3-D inputs are no images to begin with).
    const std::string said = bpu::describeDeploy(fp, g);
    QVERIFY2(
        said.find("'x' featuremap (odd H or W: --fast-perf takes an image as nv12 only at even H and W)") !=
            std::string::npos,
        said.c_str());
    QCOMPARE(said.find("odd"), said.rfind("odd")); // not said of 'gray' or 'seq'
    QVERIFY(bpu::describeDeploy(fp, yolo).find("odd") == std::string::npos);
    // The status bar's short form too: the three inputs are featuremaps, one of them for its odd H only.
    QCOMPARE(bpu::describeDeployShort(fp, g),
             std::string("fast-perf: featuremap/featuremap (odd H/W) in, outputs quantized"));
    QCOMPARE(bpu::describeDeployShort(fp, yolo), std::string("fast-perf: nv12 in, outputs quantized"));
    // A featuremap's Quantize is removed by --fast-perf: the CPU does not quantize it.
    QVERIFY(!bpu::resolveInput(fp, g, "x").quantizedOnCpu);
    QVERIFY(bpu::resolveInput(bpu::DeploySettings::keepIoQdq(), g, "x").quantizedOnCpu);
}

// yolov8n, worked by hand from the profile: with float I/O the CPU quantizes the 1x3x640x640 input (1228800
// elements) and dequantizes the six head maps (64+80 channels at 80x80, 40x40, 20x20 = 1209600 elements),
// each at qdq_elements_per_us; nv12 instead costs the BPU one conversion pass over the 1228800
// pixels-times-channels and hands the runtime 640 x 640 x 1.5 bytes instead of 1228800 int8 bytes.
void TestDeploy::floatIoCostsItsPassesExactly() {
    bpu::Session board = session("yolov8n.onnx", bpu::DeploySettings::fastPerf());
    bpu::Session floatIo = session("yolov8n.onnx", bpu::DeploySettings::keepIoQdq());
    const bpu::TargetProfile& t = board.target();
    const double qdq = t.qdqElementsPerUs.value;
    const int64_t inElems = 1LL * 3 * 640 * 640, outElems = (64 + 80) * (80 * 80 + 40 * 40 + 20 * 20);
    QCOMPARE(outElems, int64_t(1209600));
    QVERIFY(relClose(rowsOf(floatIo.cost(), bpu::CostRowKind::Quantize), inElems / qdq, 1e-12));
    QVERIFY(relClose(rowsOf(floatIo.cost(), bpu::CostRowKind::Dequantize), outElems / qdq, 1e-12));
    QCOMPARE(countRows(floatIo.cost(), bpu::CostRowKind::Dequantize), 6);
    QCOMPARE(countRows(board.cost(), bpu::CostRowKind::Quantize), 0);
    QCOMPARE(countRows(board.cost(), bpu::CostRowKind::Dequantize), 0);
    const double conversion = inElems * t.inputConversionPasses.value /
                              (t.vectorElementsPerCycle.value * t.bpuClockGhz.value * 1e3);
    QVERIFY(relClose(rowsOf(board.cost(), bpu::CostRowKind::InputConversion), conversion, 1e-12));
    QCOMPARE(countRows(floatIo.cost(), bpu::CostRowKind::InputConversion), 0);
    // Runtime I/O: nv12 614400 bytes vs 1228800 int8 bytes in; the head convs' int32 accumulators out either
    // way.
    const int64_t outBytes = outElems * int64_t(t.quantizedConvOutputBytes.value);
    QCOMPARE(board.cost().runtimeIoBytes, int64_t(640 * 640 * 3 / 2) + outBytes);
    QCOMPARE(floatIo.cost().runtimeIoBytes, inElems + outBytes);
    // Everything else is the same model on the same BPU.
    const double expected =
        (inElems + outElems) / qdq - conversion + (inElems - 614400) / (t.cpuBandwidthGBs.value * 1e3);
    QVERIFY2(
        relClose(floatIo.cost().totalUs - board.cost().totalUs, expected, 1e-9),
        (std::to_string(floatIo.cost().totalUs - board.cost().totalUs) + " vs " + std::to_string(expected))
            .c_str());
    // The board figure is what the issue asks for: within 10% of the published 2.0 ms.
    QVERIFY2(std::fabs(board.cost().latencyMs - 2.0) <= 0.2, std::to_string(board.cost().latencyMs).c_str());
}

// A config from the documented keys: nv12, data_scale, Dequantize removed, nash-e.
void TestDeploy::yamlConfigNv12() {
    const bpu::DeploySettings d = bpu::loadDeploy(kData + "yolov8n_nv12.yaml");
    QCOMPARE(d.preset, bpu::DeployPreset::Custom);
    QCOMPARE(d.march, std::string("nash-e"));
    QCOMPARE(bpu::targetForMarch(d.march), std::string("s100"));
    QVERIFY(d.removes(bpu::BoundaryOp::Dequantize));
    QVERIFY(!d.removes(bpu::BoundaryOp::Quantize));
    QCOMPARE(d.inputs.size(), size_t(1));
    QCOMPARE(d.inputs[0].type, bpu::InputRuntimeType::Nv12);
    QCOMPARE(d.inputs[0].norm, bpu::NormType::DataScale);
    QCOMPARE(d.inputs[0].scale.size(), size_t(1));
    // Every key is of the vendor's schema; the two that change the compiled model's speed and are not
    // modelled are named in one note (issue 50).
    QCOMPARE(d.notes.size(), size_t(1));
    QVERIFY2(
        d.notes[0].find("compiler_parameters.compile_mode, compiler_parameters.optimize_level change how "
                        "fast the compiled model runs") != std::string::npos,
        d.notes[0].c_str());
    // An unnamed input_name stands for the model's only input; an nv12 input needs no Quantize, so this
    // config runs yolov8n exactly as --fast-perf does.
    bpu::Session yaml = session("yolov8n.onnx", d);
    bpu::Session fast = session("yolov8n.onnx", bpu::DeploySettings::fastPerf());
    QCOMPARE(bpu::resolveInput(d, yaml.graph(), "images").type, bpu::InputRuntimeType::Nv12);
    QVERIFY(relClose(yaml.cost().totalUs, fast.cost().totalUs, 1e-12));
    QVERIFY(bpu::describeDeploy(d, yaml.graph()).find("yolov8n_nv12.yaml") != std::string::npos);
}

// A featuremap config without remove_node_type: the CPU quantizes the input and dequantizes every output, as
// hb_compile does; march nash-m is the S100P; an unknown key is a note, not an error.
void TestDeploy::yamlFeaturemapKeepsPasses() {
    const bpu::DeploySettings d = bpu::loadDeploy(kData + "featuremap_keep_qdq.yaml");
    QCOMPARE(bpu::targetForMarch(d.march), std::string("s100p"));
    QCOMPARE(d.notes.size(), size_t(2)); // the unknown key, and optimize_level not modelled
    QVERIFY(d.notes[0].find("some_future_key") != std::string::npos);
    QVERIFY(d.notes[1].find("optimize_level") != std::string::npos);
    bpu::Session s = session("yolov8n.onnx", d, "s100p");
    QVERIFY(bpu::resolveInput(d, s.graph(), "images").quantizedOnCpu);
    QCOMPARE(countRows(s.cost(), bpu::CostRowKind::Quantize), 1);
    QCOMPARE(countRows(s.cost(), bpu::CostRowKind::Dequantize), 6);
    // The same passes as the float-I/O preset.
    bpu::Session keep = session("yolov8n.onnx", bpu::DeploySettings::keepIoQdq(), "s100p");
    QVERIFY(relClose(s.cost().qdqUs, keep.cost().qdqUs, 1e-12));
}

// node_info: two convs in int16 (the TAE at int16_throughput_factor, a requantize at each int8<->int16 edge)
// and a Concat on the CPU (a CPU node, with transitions around it).
void TestDeploy::yamlNodeInfoPrecisionAndPlacement() {
    const bpu::DeploySettings d = bpu::loadDeploy(kData + "int16_mixed.yaml");
    QCOMPARE(d.nodePrecision.size(), size_t(2));
    QCOMPARE(d.nodePlacement.at("/model.21/Concat"), bpu::Placement::CPU);
    bpu::Session s = session("yolov8n.onnx", d);
    const auto& g = s.graph();
    const auto& r = s.analysis();
    QCOMPARE(r.nodes[g.findNode("/model.0/conv/Conv").value].precision, bpu::Precision::Int16);
    QCOMPARE(r.nodes[g.findNode("/model.1/conv/Conv").value].precision, bpu::Precision::Int16);
    QCOMPARE(r.nodes[g.findNode("/model.0/act/Sigmoid").value].precision, bpu::Precision::Int8);
    QCOMPARE(r.nodes[g.findNode("/model.21/Concat").value].placement, bpu::Placement::CPU);
    // conv0 (int16) -> Sigmoid/Mul (int8): one requantize of its output; Mul (int8) -> conv1 (int16): one;
    // conv1
    // -> its SiLU: one.
    QCOMPARE(countRows(s.cost(), bpu::CostRowKind::Requantize), 3);
    const bpu::TargetProfile& t = s.target();
    for (const auto& row : s.cost().rows)
        if (row.kind == bpu::CostRowKind::Requantize) {
            const double expected =
                t.layerFixedUs() + double(row.elements) * t.requantizeVectorPasses.value /
                                       (t.vectorElementsPerCycle.value * t.bpuClockGhz.value * 1e3);
            QVERIFY(relClose(row.us, expected, 1e-12));
            QVERIFY(row.onBpu);
        }
    QVERIFY(countRows(s.cost(), bpu::CostRowKind::Transition) >= 2);
}

void TestDeploy::yamlErrorsNameFileAndKey() {
    const std::string a = errorOf(kData + "bad_remove_type.yaml");
    QVERIFY2(a.find("bad_remove_type.yaml") != std::string::npos &&
                 a.find("remove_node_type") != std::string::npos && a.find("Bogus") != std::string::npos,
             a.c_str());
    const std::string b = errorOf(kData + "bad_syntax.yaml");
    QVERIFY2(b.find("bad_syntax.yaml") != std::string::npos && b.find("line") != std::string::npos,
             b.c_str());
    const std::string c = errorOf(kData + "bad_input_type.yaml");
    QVERIFY2(c.find("input_type_rt") != std::string::npos && c.find("yuv420") != std::string::npos,
             c.c_str());
    // Not a file hb_compile reads.
    const std::string missing = errorOf(kData + "no_such.yaml");
    QVERIFY2(missing.find("no_such.yaml") != std::string::npos, missing.c_str());
    QVERIFY(errorOf(kData).find("regular file") != std::string::npos || !errorOf(kData).empty());
    const std::string fifo = fixtures::tempDir() + "/deploy_fifo.yaml";
    ::unlink(fifo.c_str());
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string f = errorOf(fifo); // must not block on the FIFO
    QVERIFY2(f.find("not a regular file") != std::string::npos, f.c_str());
    ::unlink(fifo.c_str());
    QVERIFY(!errorOf("config.txt").empty()); // neither a preset nor a .yaml
}

// A float model with layout/dtype glue at both ends (the usual export): with --fast-perf the CPU
// Transpose/Cast at the start and end are removed (placed folded, free); with float I/O they stay on the CPU.
void TestDeploy::removableBoundaryOpsAreRemoved() {
    fixtures::ModelBuilder b;
    b.input("nhwc", {1, 64, 64, 3});
    b.weight("w", {16, 3, 3, 3});
    auto& t0 = b.node("Transpose", {"nhwc"}, {"nchw"}, "to_nchw");
    fixtures::setInts(t0, "perm", {0, 3, 1, 2});
    auto& c = b.node("Conv", {"nchw", "w"}, {"y"}, "conv");
    fixtures::setInts(c, "pads", {1, 1, 1, 1});
    auto& t1 = b.node("Transpose", {"y"}, {"y_nhwc"}, "to_nhwc");
    fixtures::setInts(t1, "perm", {0, 2, 3, 1});
    b.node("Cast", {"y_nhwc"}, {"out"}, "cast").add_attribute()->CopyFrom([] {
        onnx::AttributeProto a;
        a.set_name("to");
        a.set_type(onnx::AttributeProto::INT);
        a.set_i(onnx::TensorProto::FLOAT16);
        return a;
    }());
    b.output("out", onnx::TensorProto::FLOAT16);
    const std::string path = b.save("deploy_glue.onnx");
    // The table may place Transpose on the BPU; force them to the CPU as an exporter's layout glue would be,
    // to check that removal applies to what runs on the CPU.
    for (const char* preset : {"fast-perf", "keep-io-qdq"}) {
        bpu::AnalysisOptions o;
        o.deploy = *bpu::DeploySettings::fromPresetName(preset);
        bpu::Session s(bpu::ModelImporter::load(path), profile("s100"), o);
        for (const char* n : {"to_nchw", "to_nhwc"})
            bpu::editFromJson({{"op", "set_placement"}, {"node", n}, {"placement", "CPU"}})->apply(s);
        const auto& g = s.graph();
        const auto& r = s.analysis();
        const bool fast = std::string(preset) == "fast-perf";
        for (const char* n : {"cast"}) {
            const auto& a = r.nodes[g.findNode(n).value];
            QCOMPARE(a.removedByDeploy, fast);
            QCOMPARE(a.placement, fast ? bpu::Placement::Folded : bpu::Placement::CPU);
        }
        // User overrides are never removed: the user asked for the CPU.
        QVERIFY(!r.nodes[g.findNode("to_nchw").value].removedByDeploy);
        QCOMPARE(s.cost().nodes[g.findNode("cast").value].latencyUs > 0, !fast);
    }
    // Without an override the exporter's CPU glue (Cast is a CPU op in the table) is removed by --fast-perf.
    bpu::AnalysisOptions o;
    bpu::Session s(bpu::ModelImporter::load(path), profile("s100"), o);
    const auto& a = s.analysis().nodes[s.graph().findNode("cast").value];
    QVERIFY(a.removedByDeploy);
    QVERIFY(a.placementReason.str().find("remove_node_type Cast") != std::string::npos);
}

// set_precision: the whole model, named nodes, op types; int16 is slower (int16_throughput_factor, 2x bytes)
// and every int8<->int16 edge gets a requantize row.
void TestDeploy::setPrecisionWholeModelAndNodes() {
    bpu::Session base = session("yolov8n.onnx", bpu::DeploySettings::fastPerf());
    bpu::Session all = base;
    bpu::editFromJson({{"op", "set_precision"}, {"precision", "int16"}})->apply(all);
    int bpu = 0;
    for (size_t i = 0; i < all.analysis().nodes.size(); ++i)
        if (all.analysis().nodes[i].placement == bpu::Placement::BPU) {
            QCOMPARE(all.analysis().nodes[i].precision, bpu::Precision::Int16);
            ++bpu;
        }
    QVERIFY(bpu > 100);
    QCOMPARE(countRows(all.cost(), bpu::CostRowKind::Requantize), 0); // no boundary inside an all-int16 model
    QVERIFY(all.cost().bpuUs > base.cost().bpuUs * 1.3);
    // Only the convs in int16: every conv's SiLU (Sigmoid, Mul) stays int8, so precision changes at each
    // conv.
    bpu::Session convs = base;
    bpu::editFromJson({{"op", "set_precision"}, {"precision", "int16"}, {"op_types", {"Conv"}}})
        ->apply(convs);
    QVERIFY(countRows(convs.cost(), bpu::CostRowKind::Requantize) > 50);
    // Mixed is slower than int8 and pays requantizes the all-int16 model does not.
    QVERIFY(convs.cost().totalUs > base.cost().totalUs);
    // Undo restores the estimate exactly; the whole-model edit after per-node ones clears them.
    auto edit = bpu::editFromJson(
        {{"op", "set_precision"}, {"precision", "int16"}, {"nodes", {"/model.0/conv/Conv"}}});
    bpu::Session one = base;
    bpu::UndoToken token = edit->apply(one);
    QCOMPARE(one.analysis().nodes[one.graph().findNode("/model.0/conv/Conv").value].precision,
             bpu::Precision::Int16);
    token.revert(one);
    QCOMPARE(one.cost().totalUs, base.cost().totalUs);
    bpu::editFromJson({{"op", "set_precision"}, {"precision", "int16"}, {"nodes", {"/model.0/conv/Conv"}}})
        ->apply(one);
    bpu::editFromJson({{"op", "set_precision"}, {"precision", "int8"}})->apply(one);
    QVERIFY(relClose(one.cost().totalUs, base.cost().totalUs, 1e-12));
    // JSON round trip of the edit.
    QCOMPARE(edit->toJson().dump(), bpu::editFromJson(edit->toJson())->toJson().dump());
}

void TestDeploy::setPrecisionRejectsNonsense() {
    bpu::Session s = session("yolov8n.onnx", bpu::DeploySettings::fastPerf());
    QVERIFY_THROWS_EXCEPTION(bpu::EditError,
                             bpu::editFromJson({{"op", "set_precision"}, {"precision", "fp16"}}));
    QVERIFY_THROWS_EXCEPTION(bpu::EditError, bpu::editFromJson({{"op", "set_precision"}}));
    auto noNode = bpu::editFromJson({{"op", "set_precision"}, {"precision", "int16"}, {"nodes", {"nope"}}});
    const double before = s.cost().totalUs;
    QVERIFY_THROWS_EXCEPTION(bpu::EditError, noNode->apply(s));
    auto noType =
        bpu::editFromJson({{"op", "set_precision"}, {"precision", "int16"}, {"op_types", {"LSTM"}}});
    QVERIFY_THROWS_EXCEPTION(bpu::EditError, noType->apply(s));
    QCOMPARE(s.cost().totalUs, before);
}

void TestDeploy::jsonRoundTrip() {
    for (const std::string f : {"yolov8n_nv12.yaml", "featuremap_keep_qdq.yaml", "int16_mixed.yaml"}) {
        const bpu::DeploySettings d = bpu::loadDeploy(kData + f);
        const bpu::DeploySettings back = bpu::deployFromJson(bpu::deployToJson(d));
        QVERIFY2(back == d, f.c_str());
    }
    QVERIFY(bpu::deployFromJson(bpu::deployToJson(bpu::DeploySettings::keepIoQdq())) ==
            bpu::DeploySettings::keepIoQdq());
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, bpu::deployFromJson({{"preset", "turbo"}}));
    QVERIFY_THROWS_EXCEPTION(
        std::runtime_error,
        bpu::deployFromJson({{"preset", "custom"}, {"inputs", {{{"input_type_rt", "yuv420"}}}}}));
}

// A .bpuscope project records the deployment (Model > Deployment); one saved before it did opens with none
// (the default, as when it was saved); a bad deployment names the project and the key.
void TestDeploy::projectKeepsTheDeployment() {
    const nlohmann::json base = {{"schema", "bpuscope.project/1"}, {"model", "m.onnx"}};
    QVERIFY(!bpu::parseProject(base, "old.bpuscope").deploy);
    nlohmann::json doc = base;
    const bpu::DeploySettings yaml = bpu::loadDeploy(kData + "int16_mixed.yaml");
    doc["deploy"] = bpu::deployToJson(yaml);
    const auto p = bpu::parseProject(doc, "p.bpuscope");
    QVERIFY(p.deploy);
    QVERIFY(*p.deploy == yaml);
    doc["deploy"] = {{"preset", "turbo"}};
    try {
        bpu::parseProject(doc, "bad.bpuscope");
        QFAIL("a bad deployment was accepted");
    } catch (const std::exception& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("bad.bpuscope") != std::string::npos && what.find("'deploy'") != std::string::npos,
                 e.what());
    }
    doc["deploy"] = "fast-perf";
    QVERIFY_THROWS_EXCEPTION(std::exception, bpu::parseProject(doc, "bad.bpuscope"));

    // Issue 62: the objective the findings rank by; absent in older projects (they open with latency).
    QVERIFY(!bpu::parseProject(base, "old.bpuscope").objective);
    nlohmann::json withObjective = base;
    withObjective["objective"] = "throughput";
    QCOMPARE(bpu::parseProject(withObjective, "p.bpuscope").objective,
             std::optional(bpu::Objective::Throughput));
    for (const nlohmann::json& bad : {nlohmann::json("fps"), nlohmann::json(1)}) {
        withObjective["objective"] = bad;
        expectRefused(withObjective, "key 'objective'");
    }

    // Issue 63: the deltas' baseline, as the number of leading edits it holds; absent: as loaded. More than
    // the project holds, negative or not a number: refused naming the key.
    QCOMPARE(bpu::parseProject(base, "old.bpuscope").baselineEdits, size_t(0));
    nlohmann::json withBaseline = base;
    withBaseline["edits"] = {{{"op", "set_batch"}, {"batch", 2}}, {{"op", "remove_boundary_qdq"}}};
    withBaseline["baseline_edits"] = 1;
    QCOMPARE(bpu::parseProject(withBaseline, "p.bpuscope").baselineEdits, size_t(1));
    for (const nlohmann::json& bad :
         {nlohmann::json(3), nlohmann::json(-1), nlohmann::json("1"), nlohmann::json(1.5)}) {
        withBaseline["baseline_edits"] = bad;
        expectRefused(withBaseline, "key 'baseline_edits'");
    }
    // A baseline the edits do not start with is its own edit list; an entry that is not an object is
    // refused naming the key and the entry.
    withBaseline["baseline_edits"] = {{{"op", "set_batch"}, {"batch", 8}}};
    const auto list = bpu::parseProject(withBaseline, "p.bpuscope").baselineList;
    QVERIFY(list && list->size() == 1 && (*list)[0]["batch"] == 8);
    withBaseline["baseline_edits"] = {{{"op", "set_batch"}, {"batch", 8}}, 3};
    expectRefused(withBaseline, "key 'baseline_edits', entry 2");
}

// The CLI: --deploy with a YAML picks the target from march and says the deployment; a broken config is exit
// 3 naming the file.
void TestDeploy::cliDeployOption() {
    QProcess p;
    p.start(QString::fromStdString(bpu::test::cliPath()),
            {QStringLiteral("analyze"), QString::fromStdString(samplePath("yolov8n.onnx")),
             QStringLiteral("--deploy"), QString::fromStdString(kData + "featuremap_keep_qdq.yaml")});
    QVERIFY(p.waitForFinished(60000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(out.contains(QStringLiteral("[s100p ")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("deployment: featuremap_keep_qdq.yaml")), qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("board, 1 thread")) &&
                 out.contains(QStringLiteral("BPU (static)")) &&
                 out.contains(QStringLiteral("2 threads FPS")),
             qPrintable(out));
    QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("some_future_key ignored")));

    p.start(QString::fromStdString(bpu::test::cliPath()),
            {QStringLiteral("analyze"), QString::fromStdString(samplePath("yolov8n.onnx")),
             QStringLiteral("--deploy"), QString::fromStdString(kData + "bad_remove_type.yaml")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 3);
    QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains(QStringLiteral("bad_remove_type.yaml")));
}

namespace {
struct Run {
    int code;
    QString out, err;
};
Run cli(const QStringList& args) {
    QProcess p;
    p.start(QString::fromStdString(bpu::test::cliPath()), args);
    p.waitForFinished(120000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}
/// The three latency lines of `analyze`'s text: what a config's shape must reproduce.
QString latencyLines(const QString& out) {
    QStringList keep;
    for (const QString& line : out.split('\n'))
        if (line.contains("board, 1 thread") || line.contains("2 threads FPS") ||
            line.contains("BPU (static)"))
            keep << line;
    return keep.join('\n');
}
} // namespace

// input_shape and input_batch (issue 50) shape the import as --input-shape does: the DeepLabV3-shaped fixture
// has dynamic H and W; a config giving 1x3x520x520 (named, or unnamed for the only input) analyses exactly as
// --input-shape image=1x3x520x520. input_batch compiles at that batch: resnet50's fixed batch 1 becomes 2, as
// --input-shape input=2x3x224x224 makes it. The command line wins over the config, saying so.
void TestDeploy::yamlInputShapeAndBatch() {
    const QString seg = QString::fromStdString(bpu::test::testDataDir() + "/families/segmentation_os16.onnx");
    // The same deployment without the shape, given the shape on the command line: the reference.
    const std::string noShape = fixtures::writeBytes("shape_none.yaml", "input_parameters:\n"
                                                                        "  input_name: image\n"
                                                                        "  input_type_rt: nv12\n"
                                                                        "  norm_type: data_mean_and_scale\n");
    const Run byArg = cli(
        {"analyze", seg, "--deploy", QString::fromStdString(noShape), "--input-shape", "image=1x3x520x520"});
    QCOMPARE(byArg.code, 0);
    const QString expected = latencyLines(byArg.out);
    QVERIFY(expected.count('\n') == 2);
    const std::string named = fixtures::writeBytes("shape_named.yaml", "input_parameters:\n"
                                                                       "  input_name: image\n"
                                                                       "  input_type_rt: nv12\n"
                                                                       "  input_shape: 1x3x520x520\n"
                                                                       "  norm_type: data_mean_and_scale\n");
    const Run byConfig = cli({"analyze", seg, "--deploy", QString::fromStdString(named)});
    QCOMPARE(byConfig.code, 0);
    QCOMPARE(latencyLines(byConfig.out), expected);
    QVERIFY2(!byConfig.out.contains("PARTIAL"), qPrintable(byConfig.out));
    const std::string unnamed =
        fixtures::writeBytes("shape_unnamed.yaml", "input_parameters:\n"
                                                   "  input_type_rt: nv12\n"
                                                   "  input_shape: 1x3x520x520\n"
                                                   "  norm_type: data_mean_and_scale\n");
    QCOMPARE(latencyLines(cli({"analyze", seg, "--deploy", QString::fromStdString(unnamed)}).out), expected);
    // The command line wins, and says so.
    const Run both = cli(
        {"analyze", seg, "--deploy", QString::fromStdString(named), "--input-shape", "image=1x3x512x512"});
    QCOMPARE(both.code, 0);
    QVERIFY2(both.err.contains("--input-shape overrides"), qPrintable(both.err));
    QCOMPARE(latencyLines(both.out),
             latencyLines(cli({"analyze", seg, "--deploy", QString::fromStdString(noShape), "--input-shape",
                               "image=1x3x512x512"})
                              .out));

    const QString resnet = QString::fromStdString(samplePath("resnet50.onnx"));
    const std::string batch = fixtures::writeBytes("batch2.yaml", "input_parameters:\n"
                                                                  "  input_name: input\n"
                                                                  "  input_type_rt: nv12\n"
                                                                  "  input_batch: 2\n");
    const Run batched = cli({"analyze", resnet, "--deploy", QString::fromStdString(batch)});
    QCOMPARE(batched.code, 0);
    const std::string plain = fixtures::writeBytes("plain.yaml", "input_parameters:\n"
                                                                 "  input_name: input\n"
                                                                 "  input_type_rt: nv12\n");
    QCOMPARE(latencyLines(batched.out),
             latencyLines(cli({"analyze", resnet, "--deploy", QString::fromStdString(plain), "--input-shape",
                               "input=2x3x224x224"})
                              .out));
    QVERIFY(latencyLines(batched.out) !=
            latencyLines(cli({"analyze", resnet, "--deploy", QString::fromStdString(plain)}).out));
}

// A bad input_shape or input_batch is refused naming the file, the key and the value; a shape for an input
// the model does not have names what it has.
void TestDeploy::yamlInputShapeErrors() {
    const std::string badShape = fixtures::writeBytes("bad_shape.yaml", "input_parameters:\n"
                                                                        "  input_name: image\n"
                                                                        "  input_type_rt: nv12\n"
                                                                        "  input_shape: 1x3xabcx520\n");
    std::string e = errorOf(badShape);
    QVERIFY2(e.find("bad_shape.yaml") != std::string::npos && e.find("input_shape") != std::string::npos &&
                 e.find("1x3xabcx520") != std::string::npos,
             e.c_str());
    const std::string badBatch = fixtures::writeBytes("bad_batch.yaml", "input_parameters:\n"
                                                                        "  input_type_rt: nv12\n"
                                                                        "  input_batch: 0\n");
    e = errorOf(badBatch);
    QVERIFY2(e.find("input_batch") != std::string::npos, e.c_str());
    const std::string twoShapes = fixtures::writeBytes("two_shapes.yaml", "input_parameters:\n"
                                                                          "  input_type_rt: nv12\n"
                                                                          "  input_shape: 1x3x8x8;1x3x8x8\n");
    e = errorOf(twoShapes);
    QVERIFY2(e.find("input_name names no input") != std::string::npos, e.c_str());
    const std::string wrongName = fixtures::writeBytes("wrong_name.yaml", "input_parameters:\n"
                                                                          "  input_name: left\n"
                                                                          "  input_type_rt: nv12\n"
                                                                          "  input_shape: 1x3x224x224\n");
    const Run r = cli({"analyze", QString::fromStdString(samplePath("resnet50.onnx")), "--deploy",
                       QString::fromStdString(wrongName)});
    QCOMPARE(r.code, 3);
    // Issue 64: the name is input_name's, so the error names that key (it blamed input_shape).
    QVERIFY2(r.err.contains("wrong_name.yaml's input_name names 'left'") && r.err.contains("'input'"),
             qPrintable(r.err));
    // A config's shape over one the model fixes is used, as hb_compile uses it, with a note naming both.
    const std::string resized = fixtures::writeBytes("resized.yaml", "input_parameters:\n"
                                                                     "  input_name: input\n"
                                                                     "  input_type_rt: featuremap\n"
                                                                     "  input_shape: 1x3x256x256\n");
    const Run n = cli({"analyze", QString::fromStdString(samplePath("resnet50.onnx")), "--deploy",
                       QString::fromStdString(resized)});
    QCOMPARE(n.code, 0);
    QVERIFY2(n.err.contains("resized.yaml's input_shape for 'input' is 1x3x256x256 where the model fixes "
                            "1x3x224x224"),
             qPrintable(n.err));
    // The same shape as the file's: nothing to say.
    const std::string same = fixtures::writeBytes("same.yaml", "input_parameters:\n"
                                                               "  input_name: input\n"
                                                               "  input_type_rt: featuremap\n"
                                                               "  input_shape: 1x3x224x224\n");
    const Run quiet = cli({"analyze", QString::fromStdString(samplePath("resnet50.onnx")), "--deploy",
                           QString::fromStdString(same)});
    QCOMPARE(quiet.code, 0);
    QVERIFY2(!quiet.err.contains("where the model fixes"), qPrintable(quiet.err));
}

// run_on_cpu / run_on_bpu are placements (as node_info's 'ON'); every name a config gives is checked
// against the model (a config for another export must not apply in silence); the performance keys the
// estimate does not model are named in one note (issue 50 step 2).
void TestDeploy::yamlRunOnAndNameChecks() {
    const QString resnet = QString::fromStdString(samplePath("resnet50.onnx"));
    const std::string cpu =
        fixtures::writeBytes("run_on_cpu.yaml", "model_parameters:\n"
                                                "  run_on_cpu: /layer1/layer1.0/conv1/Conv\n"
                                                "compiler_parameters:\n"
                                                "  optimize_level: O2\n"
                                                "  core_num: 1\n");
    const Run r = cli({"analyze", resnet, "--deploy", QString::fromStdString(cpu)});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(", 1 CPU,"), qPrintable(r.out));
    QVERIFY2(
        r.err.contains("compiler_parameters.optimize_level, compiler_parameters.core_num change how fast") &&
            r.err.contains("not modelled"),
        qPrintable(r.err));
    const bpu::DeploySettings d = bpu::loadDeploy(cpu);
    QCOMPARE(d.nodePlacement.at("/layer1/layer1.0/conv1/Conv"), bpu::Placement::CPU);

    struct Bad {
        const char* file;
        const char* yaml;
        const char* says;
    };
    const Bad bads[] = {
        {"bad_node_info.yaml", "model_parameters:\n  node_info:\n    /no/such/Conv:\n      ON: CPU\n",
         "node_info names '/no/such/Conv', which is no node of the model"},
        {"bad_run_on_bpu.yaml", "model_parameters:\n  run_on_bpu: ghost\n",
         "run_on_bpu names 'ghost', which is no node of the model"},
        {"bad_int16.yaml", "model_parameters:\n  set_node_data_type: ghost16\n",
         "set_node_data_type names 'ghost16'"},
        {"bad_input_name.yaml", "input_parameters:\n  input_name: image\n  input_type_rt: nv12\n",
         "input_name names 'image', which is not an input of the model (it has 'input')"},
    };
    for (const Bad& b : bads) {
        const std::string path = fixtures::writeBytes(b.file, b.yaml);
        const Run e = cli({"analyze", resnet, "--deploy", QString::fromStdString(path)});
        QCOMPARE(e.code, 3);
        QVERIFY2(e.err.contains(b.file) && e.err.contains(b.says), qPrintable(e.err));
    }
}

// Issue 50 step 4: a project's edits kept aside (edits_not_applied) read back as written; a malformed entry
// names the project, the key and the entry.
void TestDeploy::projectKeepsEditsNotApplied() {
    const nlohmann::json edit = {{"op", "set_precision"}, {"nodes", {"gone"}}, {"precision", "int16"}};
    nlohmann::json doc = {
        {"schema", "bpuscope.project/1"},
        {"model", "m.onnx"},
        {"edits_not_applied", {{{"edit", edit}, {"reason", "no node named 'gone'"}, {"from", "fix"}}}}};
    const bpu::ProjectData p = bpu::parseProject(doc, "p.bpuscope");
    QCOMPARE(p.kept.size(), size_t(1));
    QCOMPARE(p.kept[0].edit, edit);
    QCOMPARE(p.kept[0].reason, std::string("no node named 'gone'"));
    QCOMPARE(p.kept[0].from, std::string("fix"));
    QVERIFY(bpu::parseProject({{"schema", "bpuscope.project/1"}, {"model", "m.onnx"}}, "p.bpuscope")
                .kept.empty());
    auto refused = [&doc](const nlohmann::json& kept, const char* part) {
        nlohmann::json bad = doc;
        bad["edits_not_applied"] = kept;
        try {
            bpu::parseProject(bad, "bad.bpuscope");
        } catch (const std::exception& e) {
            const std::string what = e.what();
            return what.find("bad.bpuscope") != std::string::npos &&
                   what.find("edits_not_applied") != std::string::npos &&
                   what.find(part) != std::string::npos;
        }
        return false;
    };
    QVERIFY(refused("x", "array"));
    QVERIFY(refused(nlohmann::json::array({edit}), "entry 1"));
    QVERIFY(refused(nlohmann::json::array({{{"edit", edit}}, {{"edit", "x"}}}), "entry 2"));
    QVERIFY(refused(nlohmann::json::array({{{"edit", edit}, {"reason", 3}}}), "'reason'"));

    // The project given to --edits: its `edits` apply, and stderr says the kept ones do not.
    doc["model"] = samplePath("resnet18.onnx");
    doc["edits"] = nlohmann::json::array({{{"op", "set_batch"}, {"batch", 2}}});
    const std::string project = fixtures::writeBytes("kept.bpuscope", doc.dump());
    const Run r = cli({"analyze", QString::fromStdString(samplePath("resnet18.onnx")), "--edits",
                       QString::fromStdString(project)});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains("kept.bpuscope: 1 edit(s) under edits_not_applied"), qPrintable(r.err));
    QVERIFY2(r.out.contains("per inference of the batch"), qPrintable(r.out.left(900))); // set_batch applied
}

namespace {

/// The deployment of session `s` written as hb_compile YAML and read back, checked against what it was: the
/// same inputs (each resolved the same), boundary ops, placements, precisions and march, no note (every key
/// written is one the reader knows), and - the reason it matters - the same estimate for a fresh import of
/// the model under the read-back settings alone (no edit).
void checkRoundTrip(const bpu::Session& s, const std::string& model, const char* what) {
    const bpu::DeploySettings d = bpu::compileDeploy(s.options());
    const std::string yaml = bpu::deployToYaml(d, s.graph(), {"exported.onnx", s.target().march, ""});
    bpu::DeploySettings back;
    try {
        back = bpu::parseDeployYaml(yaml, "exported.yaml");
    } catch (const std::exception& e) {
        QFAIL(qPrintable(QStringLiteral("%1: %2\n%3").arg(what, e.what(), QString::fromStdString(yaml))));
    }
    const QString ctx = QStringLiteral("%1:\n%2").arg(what, QString::fromStdString(yaml));
    QVERIFY2(back.notes.empty(),
             qPrintable(ctx + (back.notes.empty() ? QString() : QString::fromStdString(back.notes.front()))));
    QCOMPARE(back.removeNodeTypes, d.removeNodeTypes);
    QCOMPARE(back.removeNodeNames, d.removeNodeNames);
    QVERIFY2(back.nodePlacement == d.nodePlacement, qPrintable(ctx));
    QVERIFY2(back.nodePrecision == d.nodePrecision, qPrintable(ctx));
    QCOMPARE(back.allNodesPrecision.value_or(bpu::Precision::Int8),
             d.allNodesPrecision.value_or(bpu::Precision::Int8));
    QCOMPARE(back.march, s.target().march);
    for (bpu::TensorId in : s.graph().inputs) {
        const std::string& name = s.graph().tensor(in).name;
        const bpu::ResolvedInput a = bpu::resolveInput(d, s.graph(), name),
                                 b = bpu::resolveInput(back, s.graph(), name);
        QVERIFY2(a.type == b.type && a.norm == b.norm && a.quantizedOnCpu == b.quantizedOnCpu,
                 qPrintable(ctx));
        if (const bpu::InputDeploy* set = d.input(name)) {
            QVERIFY(back.input(name));
            QCOMPARE(back.input(name)->mean, set->mean);
            QCOMPARE(back.input(name)->scale, set->scale);
        }
    }
    bpu::AnalysisOptions o;
    o.deploy = back;
    const bpu::Session again(bpu::ModelImporter::load(model), s.targetPtr(), o);
    QVERIFY2(
        again.cost().totalUs == s.cost().totalUs,
        qPrintable(
            QStringLiteral("%1: %2 us vs %3 us").arg(ctx).arg(again.cost().totalUs).arg(s.cost().totalUs)));
    QCOMPARE(again.analysis().summary.cpuNodes, s.analysis().summary.cpuNodes);
}

} // namespace

// Issue 51 step 1: every preset, the test configs, and a what-if with placements and int16 nodes, written as
// an hb_compile config and read back to the same settings and the same estimate.
void TestDeploy::yamlWriterRoundTrip() {
    for (const char* model : {"yolov8n.onnx", "mobilenet_v2_qat.onnx"}) {
        const std::string path = samplePath(model);
        checkRoundTrip(session(model, bpu::DeploySettings::keepIoQdq()), path, "keep-io-qdq");
        // --fast-perf feeds the image as nv12 and normalises it on the BPU: with the values a user gives
        // (ultralytics and torchvision scale to 0..1 outside the graph), on either target.
        bpu::DeploySettings withValues = bpu::DeploySettings::fastPerf();
        withValues.preset = bpu::DeployPreset::Custom;
        const bpu::Graph g = bpu::ModelImporter::load(path);
        withValues.inputs.push_back({g.tensor(g.inputs[0]).name,
                                     bpu::InputRuntimeType::Nv12,
                                     bpu::NormType::DataScale,
                                     {},
                                     {1.0 / 255}});
        checkRoundTrip(session(model, withValues), path, "fast-perf with a scale");
        checkRoundTrip(session(model, withValues, "s100p"), path, "fast-perf with a scale on s100p");
    }
    const std::string yolo = samplePath("yolov8n.onnx");
    for (const char* config : {"int16_mixed.yaml", "yolov8n_nv12.yaml", "featuremap_keep_qdq.yaml"})
        checkRoundTrip(session("yolov8n.onnx", bpu::loadDeploy(kData + config)), yolo, config);

    // What-ifs that are compile settings: a node on the CPU, two nodes in int16 - the YAML must carry them.
    bpu::Session s = session("yolov8n.onnx", bpu::loadDeploy(kData + "yolov8n_nv12.yaml"));
    const double before = s.cost().totalUs;
    bpu::applyEditList(s, bpu::editListFromJson(nlohmann::json::parse(R"([
        {"op": "set_placement", "node": "/model.22/cv3.2/cv3.2.2/Conv", "placement": "CPU"},
        {"op": "set_precision", "nodes": ["/model.2/cv1/conv/Conv", "/model.2/m.0/cv1/conv/Conv"], "precision": "int16"}
    ])")));
    QVERIFY(s.cost().totalUs != before);
    const bpu::DeploySettings d = bpu::compileDeploy(s.options());
    QCOMPARE(d.nodePlacement.at("/model.22/cv3.2/cv3.2.2/Conv"), bpu::Placement::CPU);
    QCOMPARE(d.nodePrecision.size(), size_t(2));
    checkRoundTrip(s, yolo, "what-if placements and int16 nodes");
    // The whole model in int16 over a config's per-node settings: set_all_nodes_int16, and the per-node int8
    // of the config is gone as it is in the analysis.
    bpu::Session all = session("yolov8n.onnx", bpu::loadDeploy(kData + "int16_mixed.yaml"));
    bpu::applyEditList(all, bpu::editListFromJson(
                                nlohmann::json::parse(R"([{"op": "set_precision", "precision": "int16"}])")));
    QCOMPARE(bpu::compileDeploy(all.options()).allNodesPrecision, std::optional(bpu::Precision::Int16));
    checkRoundTrip(all, yolo, "whole model int16");
    const std::string text =
        bpu::deployToYaml(bpu::compileDeploy(all.options()), all.graph(), {"m.onnx", "nash-e", ""});
    QVERIFY2(text.find("optimization: 'set_all_nodes_int16'") != std::string::npos, text.c_str());
    // Issue 64: an nv12 input normalised on the BPU with no mean/scale known, whose graph does not normalise
    // it (yolov8n), has no config that compiles and feeds it right: refused, naming the input and what to
    // give. One whose graph normalises it (input_norm.onnx: Sub(mean) then Div(std) on the image) is written
    // no_preprocess, saying the model carries it.
    try {
        bpu::deployToYaml(bpu::DeploySettings::fastPerf(), all.graph(), {"m.onnx", "nash-e", ""});
        QFAIL("an nv12 config without mean/scale was written");
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("'images'") != std::string::npos && what.find("mean_value") != std::string::npos,
                 e.what());
    }
    const bpu::Graph norm = bpu::ModelImporter::load(bpu::test::testDataDir() + "/families/input_norm.onnx");
    const std::string fp = bpu::deployToYaml(bpu::DeploySettings::fastPerf(), norm, {"m.onnx", "nash-e", ""});
    QVERIFY2(fp.find("input_type_rt: 'nv12'") != std::string::npos &&
                 fp.find("norm_type: 'no_preprocess'") != std::string::npos &&
                 fp.find("the model normalises 'image'") != std::string::npos &&
                 fp.find("mean_value") == std::string::npos,
             fp.c_str());
    QVERIFY2(fp.find("input_shape: '1x3x64x64'") != std::string::npos, fp.c_str());
}

// Node names are the model's: quotes, colons, '#', a leading dash or non-ASCII read back as themselves.
void TestDeploy::yamlWriterQuotesAnyName() {
    const std::vector<std::string> names = {"a: b",   "'q' \"dq\"",         "#hash",
                                            "- dash", "Kanji \xe6\xbc\xa2", "x;y"};
    fixtures::ModelBuilder b;
    b.input("in: 1", {1, 3, 16, 16});
    b.weight("w", {3, 3, 1, 1});
    std::string prev = "in: 1";
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string out = "t" + std::to_string(i);
        b.node("Conv", {prev, "w"}, {out}, names[i]);
        prev = out;
    }
    b.output(prev);
    const std::string model = b.save("yaml_names.onnx");
    bpu::AnalysisOptions o;
    const bpu::Session s(bpu::ModelImporter::load(model), profile("s100"), o);
    bpu::DeploySettings d = bpu::DeploySettings::keepIoQdq();
    for (const auto& n : names)
        if (n != "x;y") // ';' separates names in remove_node_name / run_on_cpu; node_info keys take any name
            d.nodePlacement[n] = bpu::Placement::CPU;
    d.nodePrecision["x;y"] = bpu::Precision::Int16;
    const std::string yaml = bpu::deployToYaml(d, s.graph(), {"m.onnx", "nash-e", ""});
    const bpu::DeploySettings back = bpu::parseDeployYaml(yaml, "names.yaml");
    QVERIFY2(back.nodePlacement == d.nodePlacement, yaml.c_str());
    QVERIFY2(back.nodePrecision == d.nodePrecision, yaml.c_str());
    QCOMPARE(back.inputs.size(), size_t(1));
    QCOMPARE(back.inputs[0].name, std::string("in: 1"));
    bpu::checkDeployNames(back, s.graph()); // every name is the model's
}

QTEST_GUILESS_MAIN(TestDeploy)
#include "tst_deploy.moc"
