// SPDX-License-Identifier: MIT
// Issue 63, step 2: a fused group is one BPU layer and is bound as one, and no roofline point sits above its
// own roof.
// - resnet50 at batch 8, '/layer1/layer1.1/conv3/Conv' + Add + Relu: the conv computes ~32 us while its Add
//   reads the spilled residual and its Relu writes the output through DDR, ~157 us each: the layer moves far
//   more than it computes, so it is memory-bound, and every member says so (the head alone said compute).
// - A point's achieved rate is real MACs over its layer's time; the layer's time is at least its compute
//   (padded MACs at its rate kind's rate: dense conv, depthwise, MatMul, int16 slowed) and at least its DDR
//   time (bytes over the effective bandwidth). So achieved <= min(own roof, intensity x bandwidth) when the
//   intensity is the whole layer's MACs per DDR byte.
#include "SampleFiles.h"

#include "core/analysis/AnalysisResult.h"
#include "core/edit/EditError.h"
#include "core/edit/Session.h"
#include "core/edit/ShapeEdits.h"
#include "core/model/ModelImporter.h"
#include "core/report/ChartData.h"

#include <QtTest>

#include <algorithm>

class TestLayerBound : public QObject {
    Q_OBJECT

private slots:
    void groupBoundIncludesMembersDdr() {
        bpu::Session s(bpu::ModelImporter::load(samples::samplePath("resnet50.onnx")), samples::s100());
        bpu::SetBatchEdit(8).apply(s);
        const bpu::AnalysisResult& r = s.analysis();
        const bpu::NodeId conv = s.graph().findNode("/layer1/layer1.1/conv3/Conv");
        QVERIFY(conv.valid());
        const bpu::FusedGroup* grp = r.group(r.nodes[conv.value].fusionGroup);
        QVERIFY(grp && grp->nodes.size() >= 3);
        double compute = 0, memory = 0;
        for (bpu::NodeId m : grp->nodes) {
            compute += r.nodes[m.value].computeUs;
            memory += r.nodes[m.value].memoryUs;
        }
        QVERIFY2(memory > 2 * compute, qPrintable(QStringLiteral("%1 vs %2").arg(memory).arg(compute)));
        QVERIFY(r.nodes[conv.value].computeUs > r.nodes[conv.value].memoryUs); // the head alone: compute
        for (bpu::NodeId m : grp->nodes)
            QCOMPARE(r.nodes[m.value].bound, bpu::Bound::Memory);
    }

    void noPointAboveItsRoof_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("batch");
        for (const char* m :
             {"yolov8n", "yolo12n", "resnet50", "mobilenet_v2", "efficientnet_lite0",
              "mobilenetv4_conv_small", "shufflenet_v2_x1_0", "ssdlite320_mobilenet_v3_large"})
            for (int batch : {1, 8})
                QTest::newRow(qPrintable(QStringLiteral("%1@%2").arg(m).arg(batch)))
                    << QString::fromLatin1(m) << batch;
    }
    void noPointAboveItsRoof() {
        QFETCH(QString, model);
        QFETCH(int, batch);
        bpu::Session s(bpu::ModelImporter::load(samples::samplePath(model.toStdString() + ".onnx")),
                       samples::s100());
        if (batch != 1) {
            try {
                bpu::SetBatchEdit(batch).apply(s);
            } catch (const bpu::EditError& e) {
                // yolo12n and shufflenet fix the batch in a Reshape's constant: no batch-8 model to plot.
                QSKIP(e.what());
            }
        }
        const bpu::report::RooflineData d =
            bpu::report::roofline(s.graph(), s.analysis(), s.cost(), s.target());
        QVERIFY(!d.points.empty());
        for (const auto& p : d.points) {
            QVERIFY(p.roofMacsPerSecond > 0 && p.roofMacsPerSecond <= d.peakMacsPerSecond * (1 + 1e-12));
            const double roof = std::min(p.roofMacsPerSecond, p.intensity * d.ddrBytesPerSecond);
            QVERIFY2(p.macsPerSecond <= roof * (1 + 1e-9),
                     qPrintable(QStringLiteral("%1: %2 > %3 GMAC/s")
                                    .arg(QString::fromStdString(p.label))
                                    .arg(p.macsPerSecond / 1e9)
                                    .arg(roof / 1e9)));
            // Its roof is drawn: the dense one or one of the others.
            const bool drawn =
                std::abs(p.roofMacsPerSecond - d.roofMacsPerSecond) <= 1e-6 * d.roofMacsPerSecond ||
                std::any_of(d.otherRoofs.begin(), d.otherRoofs.end(), [&](const auto& r) {
                    return std::abs(r.macsPerSecond - p.roofMacsPerSecond) <= 1e-6 * r.macsPerSecond;
                });
            QVERIFY(drawn);
        }
    }
};

QTEST_GUILESS_MAIN(TestLayerBound)
#include "tst_layer_bound.moc"
