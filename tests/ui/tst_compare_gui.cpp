// SPDX-License-Identifier: MIT
// File > Compare With...: the open model against another export, loaded off the GUI thread. The colours and
// the compare table must show exactly what core/compare computes for the two files (checked against a
// comparison made here from the same files), and follow an edit of the open model.
#include "TestPaths.h"
#include "WorkbenchFixture.h"
#include "core/edit/EditList.h"

#include "core/compare/ModelComparison.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"
#include "ui/graph/GraphScene.h"
#include "ui/graph/LegendWidget.h"
#include "ui/graph/NodeColoring.h"
#include "ui/graph/NodeItem.h"
#include "ui/whatif/ComparePanel.h"
#include "ui/whatif/DeploymentActions.h"
#include "ui/whatif/ModelComparer.h"

#include <QSignalSpy>
#include <QTableWidget>

using namespace bpu;
using namespace bpu::ui;

namespace {

const QString kData = QString::fromStdString(bpu::test::testDataDir() + "/compare/");

Comparison reference(const QString& a, const QString& b) {
    auto t = std::make_shared<const TargetProfile>(loadTargetProfile("s100"));
    Session sa(ModelImporter::load(a.toStdString()), t), sb(ModelImporter::load(b.toStdString()), t);
    return compareSessions(sa, sb);
}

} // namespace

class TestCompareGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { fixture::isolateSettings(); }

    void compareWithColoursAndFillsThePanel() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QString a = kData + QStringLiteral("resnet18.onnx");
        const QString b = kData + QStringLiteral("resnet18_softmax256.onnx");
        QSignalSpy loaded(&w, &MainWindow::loaded);
        w.openModel(a);
        QVERIFY(loaded.wait(120000));
        QVERIFY(fixture::waitSettled(w));
        const auto s = w.snapshot();

        QSignalSpy updated(w.comparer(), &ModelComparer::updated);
        w.compareWith(b);
        QVERIFY(updated.wait(120000));
        QVERIFY(!w.comparer()->isBusy());
        const auto c = w.comparer()->comparison();
        QVERIFY(c);
        const Comparison ref = reference(a, b);
        QCOMPARE(c->nodes.size(), ref.nodes.size());
        QCOMPARE(c->latencyMsDelta(), ref.latencyMsDelta());

        // Delta mode against the other file: a node whose counterpart is slower there is orange, faster
        // green, unchanged grey; the legend names the other file.
        QCOMPARE(w.graphView()->legend()->title(),
                 QStringLiteral("Latency in resnet18_softmax256.onnx vs here"));
        const std::vector<double> delta = ref.latencyDeltaByNodeOfA(s->graph->nodes.size());
        int slower = 0, faster = 0, same = 0;
        for (NodeItem* item : w.graphView()->graphScene()->nodeItems()) {
            // A fused group's box shows the change of its matched members (unmatched only if none is).
            double d = 0;
            bool matched = false;
            for (NodeId m : item->data().members)
                if (!std::isnan(delta[m.value])) {
                    d += delta[m.value];
                    matched = true;
                }
            if (!matched)
                d = std::numeric_limits<double>::quiet_NaN();
            const QColor f = item->fill();
            if (std::isnan(d)) {
                // Issue 63: a node with no match in B is no delta: its own colour, not unchanged grey.
                QCOMPARE(f, QColor(0x56, 0xb4, 0xe9));
                continue;
            }
            if (std::fabs(d) < 1e-3) {
                QCOMPARE(f, QColor(0xe0, 0xe0, 0xe0));
                ++same;
            } else if (d > 0) {
                QVERIFY2(f.red() > f.green(), qPrintable(f.name())); // towards #d55e00
                ++slower;
            } else {
                QVERIFY2(f.green() > f.red(), qPrintable(f.name())); // towards #009e73
                ++faster;
            }
        }
        // The stem conv and the max pool work on a larger image in B (see tst_compare): slower there.
        QVERIFY(slower >= 2);
        // The classifier is faster in B: the model output's dequantize pass moved to B's extra Softmax.
        QVERIFY(faster >= 1);
        QVERIFY(same > 0);

        // The compare table: this model, the other, and the delta, as core computed them.
        QTableWidget* t = w.compare()->table();
        QCOMPARE(t->horizontalHeaderItem(2)->text(), QStringLiteral("Other"));
        QCOMPARE(t->horizontalHeaderItem(2)->toolTip(), QStringLiteral("resnet18_softmax256.onnx"));
        QCOMPARE(t->item(0, 1)->text(), QString::number(ref.a.figures.latencyMs, 'f', 3));
        QCOMPARE(t->item(0, 2)->text(), QString::number(ref.b.figures.latencyMs, 'f', 3));
        QVERIFY(w.compare()->comparisonLabel()->isVisible());
        QVERIFY(w.compare()->comparisonLabel()->text().contains(QStringLiteral("65 nodes matched")));

        // An edit of the open model is compared again: resized to B's 256x256 input, every matched node has
        // B's shape (same network, same input), and the figures follow the edited model.
        updated.clear();
        w.applyEditList(bpu::editListFromJson(
                            nlohmann::json::parse(R"({"edits": [{"op": "set_input_shape", "input": "input",
                                                             "shape": [1, 3, 256, 256]}]})")),
                        QStringLiteral("test"));
        QVERIFY(fixture::waitSettled(w, [](const Snapshot& st) { return !st.edits.empty(); }));
        QTRY_VERIFY_WITH_TIMEOUT(!updated.isEmpty() && !w.comparer()->isBusy(), 60000);
        const auto edited = w.comparer()->comparison();
        QCOMPARE(edited->shapeChanges, 0);
        QCOMPARE(edited->a.figures.latencyMs, w.snapshot()->cost.latencyMs);
        QVERIFY(std::fabs(edited->latencyMsDelta()) < std::fabs(c->latencyMsDelta()));

        // Stop comparing: the baseline table and the what-if delta legend come back.
        QSignalSpy cleared(w.comparer(), &ModelComparer::cleared);
        emit w.compare()->clearComparisonRequested();
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(t->horizontalHeaderItem(2)->text(), QStringLiteral("Current"));
        QCOMPARE(w.graphView()->legend()->title(), QStringLiteral("Latency vs baseline"));
        QVERIFY(!w.compare()->comparisonLabel()->isVisible());
    }

    // Issue 63, point 4: with a YAML deployment loaded, the other model is analysed under it too. yolov8n
    // against itself under a featuremap config that keeps the I/O Q/DQ on the CPU: the same latency on both
    // sides (the open model's, as the config estimates it), no delta, and the findings counted alike (the
    // open model's grouped list against the other's raw one read 6 against 11).
    void otherModelUnderTheOpenDeployment() {
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::loaded);
        const QString model = QString::fromStdString(bpu::test::samplesDir() + "/yolov8n.onnx");
        w.openModel(model);
        QVERIFY(loaded.wait(120000));
        QVERIFY(fixture::waitSettled(w));
        const uint64_t before = w.snapshot()->generation;
        w.deployment()->loadConfig(
            QString::fromStdString(bpu::test::testDataDir() + "/deploy/featuremap_keep_qdq.yaml"));
        QVERIFY(fixture::waitSettled(
            w, [before](const Snapshot& s) { return s.generation != before && s.findingsReady; }));
        const double openMs = w.snapshot()->cost.latencyMs;
        QSignalSpy updated(w.comparer(), &ModelComparer::updated);
        w.compareWith(model);
        QVERIFY(updated.wait(120000));
        const auto c = w.comparer()->comparison();
        QVERIFY(c);
        QCOMPARE(c->a.figures.latencyMs, openMs);
        QCOMPARE(c->b.figures.latencyMs, openMs);
        QCOMPARE(c->latencyMsDelta(), 0.0);
        QCOMPARE(c->a.findings, c->b.findings);
    }

    void unreadableOtherFileIsNamed() {
        MainWindow w;
        QSignalSpy loaded(&w, &MainWindow::loaded);
        w.openModel(kData + QStringLiteral("resnet18.onnx"));
        QVERIFY(loaded.wait(120000));
        QVERIFY(fixture::waitSettled(w));
        QSignalSpy failed(w.comparer(), &ModelComparer::failed);
        w.compareWith(QStringLiteral("/nonexistent/other.onnx"));
        QVERIFY(failed.wait(60000));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("/nonexistent/other.onnx")));
        QVERIFY(!w.comparer()->isActive());
        QTRY_VERIFY(w.lastMessage() != nullptr);
        // The open model is untouched.
        QVERIFY(w.snapshot()->modelPath.endsWith(QStringLiteral("resnet18.onnx")));
    }
};

QTEST_MAIN(TestCompareGui)
#include "tst_compare_gui.moc"
