// SPDX-License-Identifier: MIT
// Edits that rewrite the graph (issue 47): the GraphRewrite primitive and replace_activation, on small
// graphs built through onnx's protobuf API. Each pattern: the graph before and after (node counts, the
// nodes' ops and wiring, shapes), the estimate (the swapped activation fuses into its conv: one BPU layer
// fewer per occurrence, so the latency falls), the undo (the graph and the estimate exactly as before)
// and the edit's JSON round trip.
#include "OnnxFixtures.h"
#include "SampleFiles.h"

#include "core/deploy/DeploySettings.h"
#include "core/edit/ActivationEdits.h"
#include "core/edit/Edit.h"
#include "core/edit/EditError.h"
#include "core/edit/EditHistory.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/edit/TransformEdits.h"
#include "core/edit/UndoToken.h"
#include "core/io/AnalysisJson.h"
#include "core/io/ProjectJson.h"
#include "core/model/GraphRewrite.h"
#include "core/model/ModelImporter.h"

#include <QtTest>

#include <stdexcept>

using fixtures::ModelBuilder;

namespace {

void conv3x3(ModelBuilder& b, const std::string& name, const std::string& in, const std::string& w,
             const std::string& out) {
    auto& n = b.node("Conv", {in, w}, {out}, name);
    fixtures::setInts(n, "kernel_shape", {3, 3});
    fixtures::setInts(n, "pads", {1, 1, 1, 1});
}

/// x [1,32,40,40] -> two times (3x3 Conv to 32 channels -> `act`): SiLU written out (Sigmoid + Mul),
/// HardSwish written out (HardSigmoid + Mul), or a one-op HardSwish.
ModelBuilder stage(const std::string& act) {
    ModelBuilder b(act == "HardSwish" ? 14 : 13); // HardSwish is an opset 14 op
    b.input("x", {1, 32, 40, 40});
    b.weight("w1", {32, 32, 3, 3});
    b.weight("w2", {32, 32, 3, 3});
    std::string in = "x";
    for (int i = 1; i <= 2; ++i) {
        const std::string k = std::to_string(i);
        conv3x3(b, "conv" + k, in, "w" + k, "c" + k);
        if (act == "HardSwish") {
            b.node("HardSwish", {"c" + k}, {"a" + k}, "act" + k);
        } else {
            b.node(act, {"c" + k}, {"s" + k}, "gate" + k);
            b.node("Mul", {"c" + k, "s" + k}, {"a" + k}, "act" + k);
        }
        in = "a" + k;
    }
    b.output("a2");
    return b;
}

bpu::Session session(const ModelBuilder& b, const std::string& file) {
    return bpu::Session(bpu::ModelImporter::load(b.save(file)), samples::s100());
}

std::vector<std::string> ops(const bpu::Graph& g) {
    std::vector<std::string> out;
    for (bpu::NodeId id : g.topoOrder)
        out.push_back(g.node(id).opType);
    return out;
}

nlohmann::json dump(bpu::Session& s) {
    s.findings();
    return bpu::analysisJson(s.graph(), s.target(), s.analysis(), &s.cost());
}

} // namespace

class TestRewrites : public QObject {
    Q_OBJECT

private slots:
    // The primitive: a Transpose pair that cancels (NCHW -> NHWC -> NCHW) taken out, its output's reader
    // pointed at its input. Two nodes fewer, the Relu reads x, shapes as before; the original graph is
    // untouched.
    void rewriteTakesOutAPair() {
        ModelBuilder b(13);
        b.input("x", {1, 8, 4, 6});
        fixtures::setInts(b.node("Transpose", {"x"}, {"t1"}, "to_nhwc"), "perm", {0, 2, 3, 1});
        fixtures::setInts(b.node("Transpose", {"t1"}, {"t2"}, "to_nchw"), "perm", {0, 3, 1, 2});
        b.node("Relu", {"t2"}, {"y"}, "relu");
        b.output("y");
        const bpu::Graph g = bpu::ModelImporter::load(b.save("pair.onnx"));
        bpu::GraphRewrite rw;
        rw.remove = {g.findNode("to_nhwc"), g.findNode("to_nchw")};
        rw.rewire = {{"t2", "x"}};
        const bpu::Graph out = rw.apply(g);
        QCOMPARE(out.nodes.size(), size_t(1));
        const bpu::Node& relu = out.node(out.findNode("relu"));
        QCOMPARE(out.tensor(relu.inputs[0]).name, std::string("x"));
        QCOMPARE(out.tensor(out.outputs[0]).shape.dims, (std::vector<int64_t>{1, 8, 4, 6}));
        QVERIFY(!out.findTensor("t1").valid() && !out.findTensor("t2").valid());
        QCOMPARE(g.nodes.size(), size_t(3));
        // A rewrite that leaves a reader without its tensor is refused, naming it.
        bpu::GraphRewrite broken;
        broken.remove = {g.findNode("to_nchw")};
        try {
            broken.apply(g);
            QFAIL("a reader left without its tensor was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("'t2'") != std::string::npos, e.what());
        }
        // A new node may only write what a removed node wrote (its shape is known without re-inference).
        bpu::GraphRewrite wrong;
        wrong.remove = {g.findNode("relu")};
        wrong.add = {{"Relu", "r", {"x"}, {"t1"}}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, wrong.apply(g));
    }

    // remove_transform_pair on a conv stage with a layout round trip (NCHW -> NHWC -> NCHW between two
    // convs): the pair goes, the second conv reads the first's output, the estimate falls (two BPU layers
    // fewer), the revert restores everything; a Transpose not undone by the next is refused. The G6.6
    // finding on the model proposes the same edit as its fix, with a gain.
    void removeTransformPair() {
        ModelBuilder b(13);
        b.input("x", {1, 32, 40, 40});
        b.weight("w1", {32, 32, 3, 3});
        b.weight("w2", {32, 32, 3, 3});
        conv3x3(b, "conv1", "x", "w1", "c1");
        fixtures::setInts(b.node("Transpose", {"c1"}, {"t1"}, "to_nhwc"), "perm", {0, 2, 3, 1});
        fixtures::setInts(b.node("Transpose", {"t1"}, {"t2"}, "to_nchw"), "perm", {0, 3, 1, 2});
        conv3x3(b, "conv2", "t2", "w2", "y");
        b.output("y");
        bpu::Session s = session(b, "transpose_pair.onnx");
        const nlohmann::json before = dump(s);
        const double msBefore = s.cost().perImageMs;
        QVERIFY(bpu::transformPairCancels(s.graph(), s.graph().findNode("to_nhwc")));
        QVERIFY(!bpu::transformPairCancels(s.graph(), s.graph().findNode("to_nchw")));
        const bpu::EditPtr e = bpu::editFromJson({{"op", "remove_transform_pair"}, {"nodes", {"to_nhwc"}}});
        QVERIFY(!e->idealized() && e->costs().empty());
        bpu::UndoToken token = bpu::applyEditList(s, {e});
        QCOMPARE(ops(s.graph()), (std::vector<std::string>{"Conv", "Conv"}));
        const bpu::Node& conv2 = s.graph().node(s.graph().findNode("conv2"));
        QCOMPARE(s.graph().tensor(conv2.inputs[0]).name, std::string("c1"));
        QVERIFY(s.cost().perImageMs < msBefore);
        // A shape edit after the rewrite re-derives through the rewired reader (its proto names c1 now).
        bpu::UndoToken resize = bpu::applyEditList(
            s, {bpu::editFromJson({{"op", "set_input_shape"}, {"input", "x"}, {"shape", {1, 32, 48, 48}}})});
        QCOMPARE(s.graph().tensor(s.graph().outputs[0]).shape.dims, (std::vector<int64_t>{1, 32, 48, 48}));
        resize.revert(s);
        token.revert(s);
        QCOMPARE(dump(s), before);
        QVERIFY_THROWS_EXCEPTION(bpu::EditError,
                                 bpu::applyEditList(s, {bpu::editFromJson({{"op", "remove_transform_pair"},
                                                                           {"nodes", {"to_nchw"}}})}));
        s.estimateFindingGains();
        const bpu::Finding* chain = nullptr;
        for (const auto& f : s.analysis().findings)
            if (f.rule == bpu::RuleId::G6_6)
                chain = &f;
        QVERIFY(chain);
        QCOMPARE(chain->fix.size(), size_t(1));
        QCOMPARE(chain->fix[0]->toJson(), e->toJson());
        QVERIFY(chain->estimatedGainMs && *chain->estimatedGainMs > 0);
        // The what-if takes both steps away: the waste bounds the fix's gain.
        QVERIFY(chain->wasteUpperBoundMs && *chain->estimatedGainMs <= *chain->wasteUpperBoundMs + 1e-9);
    }

    void replaceActivation_data() {
        QTest::addColumn<QString>("act");
        QTest::addColumn<QString>("to");
        QTest::addColumn<int>("nodesBefore");
        QTest::addColumn<QString>("newOp");
        QTest::newRow("SiLU -> relu") << "Sigmoid"
                                      << "relu" << 6 << "Relu";
        QTest::newRow("x*HardSigmoid -> relu6") << "HardSigmoid"
                                                << "relu6" << 6 << "Clip";
        QTest::newRow("HardSwish -> relu6") << "HardSwish"
                                            << "relu6" << 4 << "Clip";
    }
    void replaceActivation() {
        QFETCH(QString, act);
        QFETCH(QString, to);
        QFETCH(int, nodesBefore);
        QFETCH(QString, newOp);
        bpu::Session s = session(stage(act.toStdString()), "act_" + act.toStdString() + ".onnx");
        QCOMPARE(int(s.graph().nodes.size()), nodesBefore);
        const nlohmann::json before = dump(s);
        const double msBefore = s.cost().perImageMs;
        const nlohmann::json edit = {
            {"op", "replace_activation"}, {"nodes", {"act1", "act2"}}, {"to", to.toStdString()}};
        const bpu::EditPtr e = bpu::editFromJson(edit);
        QCOMPARE(e->toJson(), edit); // the JSON round trip
        QVERIFY(!e->idealized());
        QVERIFY(e->costs().has(bpu::EditCost::NeedsRetraining));
        bpu::UndoToken token = bpu::applyEditList(s, {e});
        // Two convs and two activations: Conv, new op, Conv, new op.
        const std::string op = newOp.toStdString();
        QCOMPARE(ops(s.graph()), (std::vector<std::string>{"Conv", op, "Conv", op}));
        QCOMPARE(s.graph().tensor(s.graph().outputs[0]).name, std::string("a2"));
        QCOMPARE(s.graph().tensor(s.graph().outputs[0]).shape.dims, (std::vector<int64_t>{1, 32, 40, 40}));
        // Each new activation reads its conv's output and fuses into that conv: two fused groups.
        int fused = 0;
        for (const auto& grp : s.analysis().groups)
            fused += grp.fused && grp.nodes.size() == 2;
        QCOMPARE(fused, 2);
        QVERIFY2(s.cost().perImageMs < msBefore,
                 qPrintable(QStringLiteral("%1 -> %2 ms").arg(msBefore).arg(s.cost().perImageMs)));
        token.revert(s);
        QCOMPARE(dump(s), before);
    }

    // What it does not rewrite it refuses, naming the node and what it is.
    void replaceActivationRefuses() {
        bpu::Session s = session(stage("Sigmoid"), "act_refuse.onnx");
        const nlohmann::json before = dump(s);
        for (const auto& [node, words] : std::vector<std::pair<std::string, std::string>>{
                 {"conv1", "'conv1' (Conv) is not an activation"}, {"nope", "no node named 'nope'"}}) {
            try {
                bpu::applyEditList(
                    s,
                    {bpu::editFromJson({{"op", "replace_activation"}, {"nodes", {node}}, {"to", "relu"}})});
                QFAIL("accepted");
            } catch (const bpu::EditError& e) {
                QVERIFY2(std::string(e.what()).find(words) != std::string::npos, e.what());
            }
        }
        QVERIFY_THROWS_EXCEPTION(
            bpu::EditError,
            bpu::editFromJson({{"op", "replace_activation"}, {"nodes", {"act1"}}, {"to", "gelu"}}));
        QCOMPARE(dump(s), before);
    }

    // The history a user walks (apply, undo, redo) and a project's edit list (saved as JSON, read back by
    // parseProject, applied to a fresh session of the same model) land on the same state.
    void undoRedoAndProjectRoundTrip() {
        const ModelBuilder b = stage("Sigmoid");
        bpu::Session s = session(b, "act_history.onnx");
        const nlohmann::json original = dump(s);
        const nlohmann::json edit = {
            {"op", "replace_activation"}, {"nodes", {"act2", "act1"}}, {"to", "relu6"}};
        bpu::EditHistory h;
        QVERIFY(h.apply(s, {bpu::editFromJson(edit)}, "swap"));
        const nlohmann::json swapped = dump(s);
        QVERIFY(swapped != original);
        h.undo(s);
        QCOMPARE(dump(s), original);
        h.redo(s);
        QCOMPARE(dump(s), swapped);
        // The project document as the GUI writes it: the edits in the --edits form.
        const nlohmann::json doc = {{"schema", "bpuscope.project/1"},
                                    {"model", "act_history.onnx"},
                                    {"target", "s100"},
                                    {"edits", nlohmann::json::array({edit})}};
        const bpu::ProjectData p = bpu::parseProject(doc, "act.bpuscope");
        bpu::Session reopened = session(b, "act_history.onnx");
        bpu::applyEditList(reopened, bpu::editListFromJson({{"edits", p.edits}}));
        QCOMPARE(dump(reopened), swapped);
    }

    // On yolov8n the G3 SiLU finding's fix is replace_activation over its 57 activations, its gain the model
    // re-estimated with ReLU, no more than the waste's upper bound (the SiLU layers taken away outright).
    void yolov8nSiluFix() {
        bpu::Session s(bpu::ModelImporter::load(samples::samplePath("yolov8n.onnx")), samples::s100());
        s.estimateFindingGains();
        const bpu::Finding* silu = nullptr;
        for (const auto& f : s.analysis().findings)
            if (f.cause == "activation SiLU (Sigmoid + Mul)")
                silu = &f;
        QVERIFY(silu);
        QCOMPARE(silu->fix.size(), size_t(1));
        const nlohmann::json fix = silu->fix[0]->toJson();
        QCOMPARE(fix["op"].get<std::string>(), std::string("replace_activation"));
        QCOMPARE(fix["nodes"].size(), size_t(57));
        QCOMPARE(fix["to"].get<std::string>(), std::string("relu"));
        QVERIFY(silu->estimatedGainMs && silu->wasteUpperBoundMs);
        qInfo("yolov8n SiLU -> ReLU: fix saves %.3f ms, waste upper bound %.3f ms", *silu->estimatedGainMs,
              *silu->wasteUpperBoundMs);
        QVERIFY(*silu->estimatedGainMs > 0);
        QVERIFY(*silu->estimatedGainMs <= *silu->wasteUpperBoundMs + 1e-9);
    }

    // The in-graph normalisation moved into the deployment (issue 48): input_norm.onnx is torchvision's
    // (image - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225] on [0, 1] input. For 0..255 pixels that is
    // hb_compile's well-known ImageNet mean_value 123.675 116.28 103.53 and scale_value 1 / (0.229 x 255) =
    // 0.0171248 ... The G1.1 finding proposes it; applied, the graph has no Sub or Div, the deployment says
    // the values, and the gain is what it re-estimates; revert restores both.
    void moveInputNormalization() {
        const std::string path = bpu::test::testDataDir() + "/families/input_norm.onnx";
        bpu::Session s(bpu::ModelImporter::load(path), samples::s100());
        const size_t nodes = s.graph().nodes.size();
        const double before = s.cost().perImageMs;
        s.estimateFindingGains();
        const bpu::Finding* norm = nullptr;
        for (const auto& f : s.analysis().findings)
            if (f.rule == bpu::RuleId::G1_1 && !f.fix.empty() &&
                f.fix[0]->toJson()["op"] == "move_input_normalization")
                norm = &f;
        QVERIFY(norm);
        QVERIFY(norm->estimatedGainMs && *norm->estimatedGainMs > 0);
        QVERIFY(norm->fixEffects && norm->fixEffects->costs.has(bpu::EditCost::MovesPreprocessing));
        const double gain = *norm->estimatedGainMs;
        const bpu::EditList fix = norm->fix;
        bpu::UndoToken undo = bpu::applyEditList(s, fix);
        for (const auto& n : s.graph().nodes)
            QVERIFY2(n.opType != "Sub" && n.opType != "Div", n.name.c_str());
        QCOMPARE(s.graph().nodes.size(), nodes - 2);
        QVERIFY(std::abs((before - s.cost().perImageMs) - gain) < 1e-9);
        const bpu::InputDeploy* in = s.options().deploy.input("image");
        QVERIFY(in);
        QCOMPARE(in->norm, bpu::NormType::DataMeanAndScale);
        const double mean[] = {123.675, 116.28, 103.53}, std[] = {0.229, 0.224, 0.225};
        for (int c = 0; c < 3; ++c) {
            QVERIFY(std::abs(in->mean[c] - mean[c]) < 1e-4);
            QVERIFY(std::abs(in->scale[c] - 1.0 / (std[c] * 255.0)) < 1e-7);
        }
        const std::string line = bpu::describeDeploy(s.options().deploy, s.graph());
        QVERIFY2(line.find("mean_value '123.675 116.28 103.53'") != std::string::npos, line.c_str());
        undo.revert(s);
        QCOMPARE(s.graph().nodes.size(), nodes);
        QVERIFY(!s.options().deploy.input("image"));
        QCOMPARE(s.cost().perImageMs, before);
    }

    // Where it cannot be made, the edit says why: a model without a normalisation, an input the deployment
    // takes as a featuremap (norm_type is for image inputs), an input that is not there.
    void moveInputNormalizationRefuses() {
        const std::string path = bpu::test::testDataDir() + "/families/input_norm.onnx";
        auto refuses = [](bpu::Session& s, const std::string& input, const std::string& why) {
            try {
                bpu::applyEditList(
                    s, {bpu::editFromJson({{"op", "move_input_normalization"}, {"input", input}})});
                return std::string("applied");
            } catch (const bpu::EditError& e) {
                const std::string what = e.what();
                return what.find(why) != std::string::npos ? std::string() : what;
            }
        };
        bpu::AnalysisOptions floatIo;
        floatIo.deploy = bpu::DeploySettings::keepIoQdq();
        bpu::Session featuremap(bpu::ModelImporter::load(path), samples::s100(), floatIo);
        QCOMPARE(refuses(featuremap, "image", "featuremap"), std::string());
        bpu::Session none(bpu::ModelImporter::load(samples::samplePath("resnet50.onnx")), samples::s100());
        QCOMPARE(refuses(none, "input", "has no normalisation"), std::string());
        QCOMPARE(refuses(none, "nope", "no model input named 'nope'"), std::string());
    }
};

QTEST_GUILESS_MAIN(TestRewrites)
#include "tst_rewrites.moc"
