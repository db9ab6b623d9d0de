// SPDX-License-Identifier: MIT
// Issue 62, step 3 (in part): rules say only what is true.
// - G6.3 "large weights" is about waiting for the weights: a conv that uses each weight byte more times than
//   the roofline's ridge (MACs per byte where a dense conv turns compute-bound) is busy computing while they
//   load, so it gets no G6.3. DeepLab's ASPP 3x3 convs (256x960x3x3, 2.1 MiB) run on a 33x33 map: 1089 MACs
//   per weight byte; yolov8x's large convs likewise.
// - G4.3 "large C on small H/W" no longer advises moving channels into W with a Reshape: that changes what
//   the next conv computes.
// - One tensor, one finding: yolov8x's '/model.2/m.0/Add_output_0' is a large map crossing a block boundary
//   (G6.2) and a long shortcut (G6.4); both findings' what-if keeps that one tensor in SRAM, so they are one
//   finding, the other listed under `also`.
// - Padding of channels the application reads at a model output (21 class logits, a 1-channel probability
//   map) is unavoidable there: said so, low, no channel advice, ranked after every other finding.
// - A full-resolution output tail (class logits resized to the input size, an ArgMax) that is a top layer
//   gets the cut at the map before it (cut_at), the application doing the resize/argmax; an upsample inside
//   the model or to less than the input size does not.
#include "OnnxFixtures.h"
#include "TestPaths.h"

#include "core/advice/Finding.h"
#include "core/analysis/AnalysisResult.h"
#include "core/edit/Edit.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QtTest>
#include <map>
#include <set>

namespace {

std::shared_ptr<const bpu::TargetProfile> s100() {
    static auto p = std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100"));
    return p;
}

std::vector<const bpu::Finding*> allFindings(const bpu::AnalysisResult& r) {
    std::vector<const bpu::Finding*> out;
    for (const auto* list : {&r.findings, &r.foldedFindings})
        for (const auto& f : *list)
            out.push_back(&f);
    return out;
}

} // namespace

class TestRuleTruth : public QObject {
    Q_OBJECT

private slots:
    void noLargeWeightsWhereComputeBound_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("deeplabv3_like")
            << QString::fromStdString(bpu::test::testDataDir() + "/baked/deeplabv3_like.onnx");
        QTest::newRow("yolov8x") << QString::fromStdString(bpu::test::samplesDir() + "/yolov8x.onnx");
    }
    void noLargeWeightsWhereComputeBound() {
        QFETCH(QString, path);
        bpu::Session s(bpu::ModelImporter::load(path.toStdString()), s100());
        s.estimateFindingGains();
        const bpu::AnalysisResult& r = s.analysis();
        const int64_t large = int64_t(s100()->largeWeightBytes.value);
        std::set<uint32_t> computeBound;
        for (const auto& n : s.graph().nodes) {
            const auto& a = r.nodes[n.id.value];
            if (n.opType != "Conv" || a.weightBytes < large)
                continue;
            if (double(r.metrics[n.id.value].macs) / double(a.weightBytes) >= r.ridgeIntensity)
                computeBound.insert(n.id.value);
        }
        QVERIFY2(!computeBound.empty(), "the model has large-weight convs that reuse each weight many times");
        for (const bpu::Finding* f : allFindings(r)) {
            std::vector<bpu::NodeId> named = f->nodes;
            for (const auto& p : f->occurrences)
                named.insert(named.end(), p.nodes.begin(), p.nodes.end());
            if (f->rule != bpu::RuleId::G6_3 &&
                std::none_of(f->occurrences.begin(), f->occurrences.end(),
                             [](const auto& p) { return p.rule == bpu::RuleId::G6_3; }))
                continue;
            for (bpu::NodeId id : named)
                QVERIFY2(!computeBound.count(id.value), f->title.c_str());
        }
    }

    // Issue 62: a finding without a fix whose what-if is part of another's is the same waste. ResNet-50's
    // G4.3 maps (1x512x7x7 and 1x2048x7x7, padded to 8x16) are among the maps the 224x224 input leaves
    // padded in H/W (the input-size finding's assume_aligned lists them): no top-level G4.3, both under
    // the input-size finding's `also`, and no tensor in two top-level what-ifs of one kind.
    void partOfAnotherWasteIsListedUnderIt() {
        bpu::Session s(bpu::ModelImporter::load(bpu::test::samplesDir() + "/resnet50.onnx"), s100());
        s.estimateFindingGains();
        int g43Top = 0, g43Also = 0;
        std::map<std::string, int> alignedIn; // tensor -> top-level no-fix findings whose what-if aligns it
        for (const bpu::Finding* f : allFindings(s.analysis())) {
            g43Top += f->rule == bpu::RuleId::G4_3;
            for (const auto& p : f->also)
                g43Also += p.rule == bpu::RuleId::G4_3;
            if (f->fix.empty() && f->whatIf.size() == 1) {
                const auto j = f->whatIf.front()->toJson();
                if (j.value("op", "") == "assume_aligned")
                    for (const auto& t : j.at("tensors"))
                        ++alignedIn[t.get<std::string>()];
            }
        }
        QCOMPARE(g43Top, 0);
        QCOMPARE(g43Also, 2);
        for (const auto& [t, n] : alignedIn)
            QVERIFY2(n == 1, t.c_str());
    }

    void oneTensorOneFinding() {
        bpu::Session s(bpu::ModelImporter::load(bpu::test::samplesDir() + "/yolov8x.onnx"), s100());
        s.estimateFindingGains();
        std::map<std::string, size_t> ownerOf; // "tensor 'X'" -> the top-level finding that lists it
        const auto all = allFindings(s.analysis());
        size_t merged = 0;
        for (size_t i = 0; i < all.size(); ++i) {
            std::vector<std::string> causes{all[i]->cause};
            for (const auto& p : all[i]->occurrences)
                causes.push_back(p.cause);
            for (const auto& cause : causes) {
                if (cause.rfind("tensor '", 0) != 0)
                    continue;
                const auto [it, fresh] = ownerOf.try_emplace(cause, i);
                QVERIFY2(fresh || it->second == i, (cause + " in two findings").c_str());
            }
            for (const auto& p : all[i]->also)
                merged += p.cause == "tensor '/model.2/m.0/Add_output_0'";
        }
        QVERIFY(ownerOf.count("tensor '/model.2/m.0/Add_output_0'"));
        QCOMPARE(merged, size_t(1)); // the other rule's finding over it, under `also`
    }

    // Issue 62: findings without a fix that give the same advice under one rule are one finding. YOLO12n's
    // area attention has transform chains of two kinds: ones a what-if can fold away and the K^T Transposes
    // (4x2x400x400) it cannot: both "merge the chain and change as few dimensions as possible" (G6.6), so
    // one G6.6 finding, the K^T chain among its occurrences.
    void sameAdviceWithoutFixIsOneFinding_data() {
        QTest::addColumn<QString>("model");
        for (const char* m :
             {"yolo12n", "ssdlite320_mobilenet_v3_large", "fasterrcnn_mobilenet_v3_large_320_fpn"})
            QTest::newRow(m) << QString::fromLatin1(m);
    }
    void sameAdviceWithoutFixIsOneFinding() {
        QFETCH(QString, model);
        bpu::Session s(
            bpu::ModelImporter::load(bpu::test::samplesDir() + "/" + model.toStdString() + ".onnx"), s100());
        s.estimateFindingGains();
        std::set<std::string> advice;
        for (const bpu::Finding* f : allFindings(s.analysis()))
            if (f->fix.empty())
                QVERIFY2(advice.insert(std::string(bpu::ruleName(f->rule)) + "|" + f->recommendation).second,
                         f->title.c_str());
        if (model != "yolo12n")
            return;
        const bpu::Finding* g66 = nullptr;
        for (const bpu::Finding* f : allFindings(s.analysis()))
            if (f->rule == bpu::RuleId::G6_6)
                g66 = f;
        QVERIFY(g66);
        bool kt = false;
        for (const auto& p : g66->occurrences)
            kt = kt || p.title.find("4x2x400x400") != std::string::npos;
        QVERIFY(kt);
    }

    // x [1,64,256,256] -> 3x3 conv to 40 channels (pads to 64: 37.5%, a width the designer chose) -> ReLU ->
    // a 1x1 conv to 21 class logits (a model output; pads to 32: 34%) and a 1x1 conv to 1 channel -> Sigmoid
    // (a probability map, a model output; pads to 32: 97%). H and W (256) are aligned to 8 and 16. The two
    // outputs' findings are one kind (no fix, the same what-if kind): one group, both among its parts.
    void outputPaddingIsUnavoidable() {
        fixtures::ModelBuilder b;
        b.input("x", {1, 64, 256, 256});
        auto conv = [&b](const std::string& name, const std::string& in, int64_t cin, int64_t cout,
                         const std::string& out, int64_t k) {
            b.weight(name + "_w", {cout, cin, k, k});
            auto& n = b.node("Conv", {in, name + "_w"}, {out}, name);
            fixtures::setInts(n, "kernel_shape", {k, k});
            fixtures::setInts(n, "pads", {k / 2, k / 2, k / 2, k / 2});
        };
        conv("wide", "x", 64, 40, "h", 3);
        b.node("Relu", {"h"}, {"hr"}, "relu");
        conv("cls", "hr", 40, 21, "logits", 1);
        conv("map", "hr", 40, 1, "m", 1);
        b.node("Sigmoid", {"m"}, {"prob"}, "sig");
        b.output("logits");
        b.output("prob");
        bpu::Session s(bpu::ModelImporter::load(b.save("output_padding.onnx")), s100());
        s.estimateFindingGains();
        const auto all = allFindings(s.analysis());
        std::vector<std::string> unavoidable;
        bool wide = false, sawUnavoidable = false;
        for (const bpu::Finding* f : all) {
            if (f->rule != bpu::RuleId::G4_2)
                continue;
            const std::string shape = f->evidence.value("shape", "");
            if (f->unavoidable) {
                sawUnavoidable = true;
                for (const auto& p :
                     f->occurrences.empty()
                         ? std::vector<bpu::FindingPart>{{f->rule, f->cause, f->title, {}, {}, {}}}
                         : f->occurrences)
                    unavoidable.push_back(p.cause);
                QCOMPARE(f->severity, bpu::Severity::Low);
                QVERIFY(f->fix.empty());
                QVERIFY2(f->recommendation.find("multiples of") == std::string::npos,
                         f->recommendation.c_str());
                QVERIFY(!f->whatIf.empty()); // what it costs stays
            } else if (shape == "1x40x256x256") {
                wide = true;
                QVERIFY2(!sawUnavoidable, "an unavoidable finding ranked before the designer's width");
            }
        }
        QVERIFY(wide);
        std::sort(unavoidable.begin(), unavoidable.end());
        QCOMPARE(unavoidable,
                 (std::vector<std::string>{"1x1x256x256 -> 1x32x256x256", "1x21x256x256 -> 1x32x256x256"}));
        // Every unavoidable finding after every other one in the list.
        const auto& list = s.analysis().findings;
        const auto first =
            std::find_if(list.begin(), list.end(), [](const auto& f) { return f.unavoidable; });
        QVERIFY(std::all_of(first, list.end(), [](const auto& f) { return f.unavoidable; }));
    }

    // x [1,3,256,256] -> a 4x4 stride-4 conv to 32 channels [1,32,64,64] -> ReLU -> a 1x1 conv to 21 class
    // logits [1,21,64,64] -> Resize to `size` -> ArgMax over the classes when `argmax`. At 256 (the input
    // size) the Resize writes 21 x 65536 values, 16x the logits: most of the model's time.
    static std::string segmenter(int64_t size, bool argmax, const std::string& file) {
        fixtures::ModelBuilder b;
        b.input("x", {1, 3, 256, 256});
        b.weight("w1", {32, 3, 4, 4});
        auto& c1 = b.node("Conv", {"x", "w1"}, {"f"}, "stem");
        fixtures::setInts(c1, "kernel_shape", {4, 4});
        fixtures::setInts(c1, "strides", {4, 4});
        b.node("Relu", {"f"}, {"fr"}, "relu");
        b.weight("w2", {21, 32, 1, 1});
        fixtures::setInts(b.node("Conv", {"fr", "w2"}, {"logits"}, "cls"), "kernel_shape", {1, 1});
        b.ints("sizes", {1, 21, size, size});
        b.node("Resize", {"logits", "", "", "sizes"}, {argmax ? "up" : "out"}, "resize");
        if (argmax)
            fixtures::setInt(b.node("ArgMax", {"up"}, {"out"}, "argmax"), "axis", 1);
        b.output("out", argmax ? onnx::TensorProto::INT64 : onnx::TensorProto::FLOAT);
        return b.save(file);
    }

    void fullResolutionTailIsCut() {
        for (bool argmax : {false, true}) {
            bpu::Session s(bpu::ModelImporter::load(segmenter(256, argmax, "tail_full.onnx")), s100());
            s.estimateFindingGains();
            const bpu::Finding* tail = nullptr;
            for (const bpu::Finding* f : allFindings(s.analysis()))
                if (f->cause == "output tail 'out'")
                    tail = f;
            QVERIFY(tail);
            QCOMPARE(tail->rule, bpu::RuleId::G6_2);
            QCOMPARE(tail->fix.size(), size_t(1));
            QCOMPARE(tail->fix.front()->toJson(),
                     (nlohmann::json{{"op", "cut_at"}, {"tensors", {"logits"}}}));
            QVERIFY(tail->estimatedGainMs && *tail->estimatedGainMs > 0);
            QCOMPARE(tail->nodes.size(), size_t(argmax ? 2 : 1));
            QVERIFY(tail->recommendation.find("application") != std::string::npos);
        }
        // Resized to half the input size, no ArgMax: not full resolution, no cut.
        bpu::Session half(bpu::ModelImporter::load(segmenter(128, false, "tail_half.onnx")), s100());
        half.estimateFindingGains();
        for (const bpu::Finding* f : allFindings(half.analysis()))
            QVERIFY2(f->cause.rfind("output tail", 0) != 0, f->title.c_str());
        // YOLOv8n upsamples inside the model (its FPN): no output tail.
        bpu::Session yolo(bpu::ModelImporter::load(bpu::test::samplesDir() + "/yolov8n.onnx"), s100());
        yolo.estimateFindingGains();
        for (const bpu::Finding* f : allFindings(yolo.analysis()))
            QVERIFY2(f->cause.rfind("output tail", 0) != 0, f->title.c_str());
    }

    void largeCOnSmallHwAdvisesNoReshape_data() {
        QTest::addColumn<QString>("model");
        for (const char* m : {"resnet50", "mobilenet_v2", "efficientnet_b0"})
            QTest::newRow(m) << QString::fromLatin1(m);
    }
    void largeCOnSmallHwAdvisesNoReshape() {
        QFETCH(QString, model);
        bpu::Session s(
            bpu::ModelImporter::load(bpu::test::samplesDir() + "/" + model.toStdString() + ".onnx"), s100());
        // The rules' own findings, before the trials merge them (a G4.3 whose maps are among the input
        // size's H/W-padded ones is listed under that finding's `also`).
        int seen = 0;
        for (const bpu::Finding* f : allFindings(s.analysis())) {
            if (f->rule != bpu::RuleId::G4_3)
                continue;
            ++seen;
            QVERIFY2(f->recommendation.find("Reshape") == std::string::npos, f->recommendation.c_str());
            QVERIFY(!f->whatIf.empty()); // the waste bound stays
        }
        QVERIFY2(seen > 0, "each has 512+ channel maps at 7x7: a G4.3 finding");
        // After the trials every G4.3 is still shown: on its own, or under the finding whose what-if covers
        // its maps.
        s.estimateFindingGains();
        int shown = 0;
        for (const bpu::Finding* f : allFindings(s.analysis())) {
            shown += f->rule == bpu::RuleId::G4_3;
            for (const auto& p : f->also)
                shown += p.rule == bpu::RuleId::G4_3;
        }
        QVERIFY(shown > 0);
    }
};

QTEST_GUILESS_MAIN(TestRuleTruth)
#include "tst_rule_truth.moc"
