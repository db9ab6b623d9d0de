// SPDX-License-Identifier: MIT
// Issue 62: the Findings dock's objective switch. ResNet-18 at 224 loads its weights for most of the BPU time
// at batch 1, so its batch finding (G6.5) fires: under latency (the default) a batch makes every frame wait
// and saves none of its time; under throughput its FPS gain leads the list. The choice is a session setting:
// unsaved work until the project is saved, and a saved project opens with it.
#include "WorkbenchFixture.h"

#include "ui/findings/FindingsPanel.h"
#include "ui/session/SessionController.h"

#include <QComboBox>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace bpu;
using namespace bpu::ui;

namespace {

/// The row of the batch finding (rule column "G6.5"), or -1.
int batchRow(const FindingsPanel& p) {
    for (int r = 0; r < p.tree()->topLevelItemCount(); ++r)
        if (p.tree()->topLevelItem(r)->text(2) == QLatin1String("G6.5"))
            return r;
    return -1;
}

void choose(FindingsPanel& p, Objective o) {
    QComboBox* box = p.objectiveBox();
    const int index = box->findData(int(o));
    box->setCurrentIndex(index);
    emit box->activated(index); // as a click on the item does
}

} // namespace

class TestObjectiveGui : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { fixture::isolateSettings(); }

    void switchReranksAndIsSaved() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString project = dir.filePath(QStringLiteral("resnet18.bpuscope"));
        {
            MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QVERIFY(fixture::openAndSettle(w, fixture::sample("resnet18.onnx")));
            FindingsPanel& p = *w.findings();
            QCOMPARE(w.snapshot()->objective, Objective::Latency);
            QCOMPARE(p.objectiveBox()->currentData().toInt(), int(Objective::Latency));
            const int latencyRow = batchRow(p);
            QVERIFY(latencyRow >= 0);
            QCOMPARE(p.tree()->topLevelItem(latencyRow)->text(0), QStringLiteral("-")); // no frame time saved
            QCOMPARE(p.tree()->topLevelItem(latencyRow)->text(3), QStringLiteral("low"));

            choose(p, Objective::Throughput);
            QVERIFY(fixture::waitSettled(
                w, [](const Snapshot& s) { return s.objective == Objective::Throughput; }));
            QCOMPARE(batchRow(p), 0); // the largest FPS gain
            QVERIFY(p.tree()->topLevelItem(0)->text(0) != QStringLiteral("-"));
            QVERIFY(!w.snapshot()->clean); // a setting changed since the model was opened
            bool saved = false;
            QString error;
            w.controller()->saveProject(project, [&](const QString& e) {
                error = e;
                saved = true;
            });
            QTRY_VERIFY_WITH_TIMEOUT(saved, 60000);
            QVERIFY2(error.isEmpty(), qPrintable(error));
        }
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy loaded(&w, &MainWindow::loaded);
        QVERIFY(w.openProject(project));
        QVERIFY(!loaded.isEmpty() || loaded.wait(120000));
        QVERIFY(fixture::waitSettled(w));
        QCOMPARE(w.snapshot()->objective, Objective::Throughput);
        QVERIFY(w.snapshot()->clean);
        QCOMPARE(w.findings()->objectiveBox()->currentData().toInt(), int(Objective::Throughput));
        QCOMPARE(batchRow(*w.findings()), 0);
    }
};

QTEST_MAIN(TestObjectiveGui)
#include "tst_objective_gui.moc"
