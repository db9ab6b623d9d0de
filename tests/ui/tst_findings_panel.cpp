// SPDX-License-Identifier: MIT
// The Findings dock keeps a finding's concrete fix apart from its idealized what-if (issue 45): yolov8n's
// SiLU finding has no fix a model owner can make (no model has SiLU fused into a conv), only the what-if
// that takes the layers away. Its row shows no fix gain and the waste's upper bound; "Apply fix" stays off;
// the what-if button applies it as one undoable step, landing on the latency the upper bound promised.
#include "WorkbenchFixture.h"

#include "ui/findings/FindingsPanel.h"

#include <QPushButton>
#include <QTreeWidget>

using namespace bpu;
using namespace bpu::ui;

class TestFindingsPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { fixture::isolateSettings(); }

    void whatIfIsNotAFix() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(fixture::openAndSettle(w, fixture::sample("yolov8n.onnx")));
        const auto before = w.snapshot();
        FindingsPanel* panel = w.findings();
        QTreeWidget* tree = panel->tree();
        int row = -1;
        for (int i = 0; i < int(before->analysis.findings.size()); ++i)
            if (before->analysis.findings[size_t(i)].cause == "activation SiLU (Sigmoid + Mul)")
                row = i;
        QVERIFY(row >= 0);
        const Finding& silu = before->analysis.findings[size_t(row)];
        QVERIFY(silu.fix.empty() && !silu.whatIf.empty() && silu.wasteUpperBoundMs);
        QTreeWidgetItem* item = tree->topLevelItem(row);
        // Columns: fix gain, waste, rule, severity, title. No gain is claimed; the waste is an upper bound.
        QCOMPARE(item->text(0), QStringLiteral("-"));
        QCOMPARE(item->text(1), QString::number(*silu.wasteUpperBoundMs, 'f', 3));
        QCOMPARE(item->text(3), QStringLiteral("low"));
        tree->setCurrentItem(item);
        QVERIFY(!panel->applyButton()->isEnabled());
        QVERIFY(panel->whatIfButton()->isEnabled());
        const double startMs = before->cost.perImageMs;
        const double waste = *silu.wasteUpperBoundMs;
        panel->whatIfButton()->click();
        QVERIFY(
            fixture::waitSettled(w, [&](const Snapshot& s) { return s.generation != before->generation; }));
        // The what-if lands where its upper bound said, as one step in the history.
        QVERIFY(qAbs((startMs - w.snapshot()->cost.perImageMs) - waste) < 1e-9);
        QCOMPARE(int(w.snapshot()->history.size()), 1);
        w.controller()->undo();
        QVERIFY(fixture::waitSettled(w, [&](const Snapshot& s) { return s.historyPosition == 0; }));
        QVERIFY(qAbs(w.snapshot()->cost.perImageMs - startMs) < 1e-9);
    }
};

QTEST_MAIN(TestFindingsPanel)
#include "tst_findings_panel.moc"
