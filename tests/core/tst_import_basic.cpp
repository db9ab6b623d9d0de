// SPDX-License-Identifier: MIT
// Smoke test: a Conv with groups and padding imports, infers, and counts the hand-computed MACs; the graph's
// name lookups hold at a scale where its index grows and probes collide.
#include "OnnxFixtures.h"

#include "core/metrics/NodeMetrics.h"
#include "core/model/Graph.h"
#include "core/model/ModelImporter.h"

#include <string>

#include <QtTest>

class TestImportBasic : public QObject {
    Q_OBJECT
private slots:
    void groupedConv() {
        fixtures::ModelBuilder b;
        b.input("x", {1, 8, 10, 10});
        b.weight("w", {16, 4, 3, 3}); // groups=2: each output channel sees 4 input channels
        auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "conv");
        fixtures::setInt(conv, "group", 2);
        fixtures::setInts(conv, "pads", {1, 1, 1, 1});
        fixtures::setInts(conv, "kernel_shape", {3, 3});
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("conv.onnx"));
        const auto& y = g.tensor(g.findTensor("y"));
        QCOMPARE(y.shape.toString(), std::string("1x16x10x10"));
        auto m = bpu::computeNodeMetrics(g, g.node(g.findNode("conv")));
        // 16 x 10 x 10 outputs, each 4 x 3 x 3 = 36 MACs.
        QCOMPARE(m.macs, int64_t(16 * 10 * 10 * 36));
        QCOMPARE(m.params, int64_t(16 * 4 * 3 * 3));
    }

    // Graph's name index keeps positions, not names: every name interned or added must come back at the id it
    // was given, through growth (no reserve), short and long names, names that prefix each other, repeated
    // and empty node names (renamed), and in a copy that then grows apart from the original.
    void nameLookupsAtScale() {
        constexpr uint32_t kCount = 40000;
        auto tensorName = [](uint32_t i) {
            // Short names stay inside std::string; every seventh is long. "t1" prefixes "t10", "t100", ...
            return (i % 7 == 0 ? "/model.backbone/stage." + std::to_string(i) + "/conv/Conv_output_0"
                               : "t" + std::to_string(i));
        };
        bpu::Graph g;
        for (uint32_t i = 0; i < kCount; ++i)
            QCOMPARE(g.internTensor(tensorName(i)).value, i);
        for (uint32_t i = 0; i < kCount; ++i) {
            QCOMPARE(g.internTensor(tensorName(i)).value, i); // interning again finds, adds nothing
            QCOMPARE(g.findTensor(tensorName(i)).value, i);
        }
        QCOMPARE(g.tensors.size(), size_t(kCount));
        QVERIFY(!g.findTensor("t" + std::to_string(kCount)).valid());
        QVERIFY(!g.findTensor("").valid());
        QVERIFY(!g.findTensor("T1").valid());

        for (uint32_t i = 0; i < kCount; ++i) {
            bpu::Node n;
            n.opType = "Relu";
            // Every fifth repeats the name of the node before it, every eleventh has none.
            n.name = i % 11 == 0 ? std::string() : "relu" + std::to_string(i % 5 == 0 && i > 0 ? i - 1 : i);
            QCOMPARE(g.addNode(std::move(n)).value, i);
        }
        for (uint32_t i = 0; i < kCount; ++i) {
            const std::string& name = g.node(bpu::NodeId{i}).name;
            QCOMPARE(g.findNode(name).value, i); // renamed ones under their new, unique name
        }
        QCOMPARE(g.node(bpu::NodeId{0}).name, std::string("Relu_0"));
        QCOMPARE(g.node(bpu::NodeId{10}).name, std::string("relu9_10"));
        QCOMPARE(g.findNode("relu9").value, uint32_t(9));

        bpu::Graph copy = g;
        for (uint32_t i = kCount; i < 2 * kCount; ++i)
            QCOMPARE(copy.internTensor(tensorName(i)).value, i);
        for (uint32_t i = 0; i < 2 * kCount; i += 997)
            QCOMPARE(copy.findTensor(tensorName(i)).value, i);
        QVERIFY(!g.findTensor(tensorName(kCount + 1)).valid()); // the original did not grow with the copy
        QCOMPARE(g.findTensor(tensorName(kCount - 1)).value, kCount - 1);
    }
};

QTEST_GUILESS_MAIN(TestImportBasic)
#include "tst_import_basic.moc"
