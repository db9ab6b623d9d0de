// SPDX-License-Identifier: MIT
// Issue 63, step 1: one delta table (core/cost/NodeDeltas.h) pairs the current model's nodes with the
// baseline's by name and compares them per image. On yolov8n:
// - the SiLU -> ReLU fix replaces 57 Sigmoid + Mul pairs with 57 Relu nodes: the Relus are new (no delta),
//   the Sigmoids and Muls are gone, and a node the fix does not touch - the neck's Concat and Resize, whose
//   inputs keep their shapes and placements - has a delta of 0 (paired by index, the old GUI showed
//   /model.11/Concat +10.07 us, /model.10/Resize +6.23 us);
// - at input 4x3x640x640 one inference serves four images: per image no node whose traffic per image is
//   unchanged is slower (a batch only shares each layer's fixed cost and weight loads), while per inference
//   nearly every one would look slower.
#include "SampleFiles.h"

#include "core/analysis/AnalysisResult.h"
#include "core/cost/NodeDeltas.h"
#include "core/edit/ActivationEdits.h"
#include "core/edit/Session.h"
#include "core/edit/ShapeEdits.h"
#include "core/model/ModelImporter.h"

#include <QtTest>

#include <cmath>

namespace {

bpu::Session yolov8n() {
    return bpu::Session(bpu::ModelImporter::load(samples::samplePath("yolov8n.onnx")), samples::s100());
}

} // namespace

class TestNodeDeltas : public QObject {
    Q_OBJECT

private slots:
    void siluFixPairsByName() {
        bpu::Session base = yolov8n();
        bpu::Session now = yolov8n();
        std::vector<std::string> muls; // each SiLU's Mul (the G3 fix names the activation's last node)
        for (const auto& n : now.graph().nodes)
            if (n.opType == "Mul" && n.name.find("/act/Mul") != std::string::npos)
                muls.push_back(n.name);
        QCOMPARE(muls.size(), size_t(57));
        bpu::ReplaceActivationEdit(muls, bpu::ReplaceActivationEdit::Target::Relu).apply(now);
        const bpu::NodeDeltas d(now.graph(), now.cost(), base.graph(), base.cost());
        QVERIFY(!d.perImage());
        size_t relus = 0;
        for (const auto& n : now.graph().nodes)
            if (n.opType == "Relu") {
                ++relus;
                QCOMPARE(d.kind(n.id), bpu::NodeChangeKind::New);
                QCOMPARE(d.deltaUs(n.id), 0.0);
            }
        QCOMPARE(relus, size_t(57));
        QCOMPARE(d.newCount(), size_t(57));
        QCOMPARE(d.removed().size(), size_t(2 * 57)); // each Sigmoid and its Mul
        QVERIFY(d.removedUs() > 0);
        for (const char* name : {"/model.11/Concat", "/model.10/Resize"}) {
            const bpu::NodeId id = now.graph().findNode(name);
            QVERIFY2(id.valid(), name);
            QCOMPARE(d.kind(id), bpu::NodeChangeKind::Paired);
            QCOMPARE(d.baselineNode(id), base.graph().findNode(name));
            QVERIFY2(std::abs(d.deltaUs(id)) < 1e-9,
                     (name + std::string(": ") + std::to_string(d.deltaUs(id))).c_str());
            QVERIFY(d.nowUs(id) > 0);
        }
        // Every paired node's delta is its own time now minus its own time before.
        for (const auto& n : now.graph().nodes)
            if (d.kind(n.id) == bpu::NodeChangeKind::Paired)
                QCOMPARE(d.deltaUs(n.id), now.cost().nodes[n.id.value].latencyUs -
                                              base.cost().nodes[d.baselineNode(n.id).value].latencyUs);
    }

    void batchIsComparedPerImage() {
        bpu::Session base = yolov8n();
        bpu::Session now = yolov8n();
        bpu::SetInputShapeEdit("images", {4, 3, 640, 640}).apply(now);
        QCOMPARE(now.cost().batch, 4);
        const bpu::NodeDeltas d(now.graph(), now.cost(), base.graph(), base.cost());
        QVERIFY(d.perImage());
        QCOMPARE(d.newCount(), size_t(0));
        QVERIFY(d.removed().empty());
        int slowerPerInference = 0, sameTraffic = 0;
        for (const auto& n : now.graph().nodes) {
            QCOMPARE(d.kind(n.id), bpu::NodeChangeKind::Paired);
            // A node whose DDR traffic per image is what it was (no new spill: four images' maps may
            // outgrow the SRAM budget, and then a node is slower per image for a reason) does the same
            // work per image and shares its layer's fixed cost: never slower per image.
            if (now.analysis().nodes[n.id.value].ddrBytes == 4 * base.analysis().nodes[n.id.value].ddrBytes ||
                now.analysis().nodes[n.id.value].ddrBytes == base.analysis().nodes[n.id.value].ddrBytes) {
                ++sameTraffic;
                QVERIFY2(d.deltaUs(n.id) <= 1e-9, n.name.c_str());
            }
            QCOMPARE(d.nowUs(n.id), now.cost().nodes[n.id.value].latencyUs / 4);
            slowerPerInference +=
                now.cost().nodes[n.id.value].latencyUs > base.cost().nodes[n.id.value].latencyUs + 1e-9;
        }
        QVERIFY(sameTraffic > 100);
        QVERIFY(slowerPerInference > 100); // what pairing per inference showed
    }
};

QTEST_GUILESS_MAIN(TestNodeDeltas)
#include "tst_node_deltas.moc"
