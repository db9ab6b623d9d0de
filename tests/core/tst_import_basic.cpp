// SPDX-License-Identifier: MIT
// Smoke test: a Conv with groups and padding imports, infers, and counts the hand-computed MACs.
#include "OnnxFixtures.h"

#include "core/metrics/NodeMetrics.h"
#include "core/model/ModelImporter.h"

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
};

QTEST_GUILESS_MAIN(TestImportBasic)
#include "tst_import_basic.moc"
