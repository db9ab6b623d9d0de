// SPDX-License-Identifier: MIT
// The Findings dock keeps a finding's concrete fix apart from its idealized what-if (issue 45): yolov8n's
// padding finding has no fix a model owner can make here, only the what-if that aligns every padded
// tensor. Its row shows no fix gain and the waste's upper bound; "Apply fix" stays off; the what-if button
// applies it as one undoable step, landing on the latency the upper bound promised. Its SiLU finding has a
// fix (the activations swapped for ReLU), applied by "Apply fix" as one undoable step landing on its gain.
// Its input-size finding's larger size is applied by "Apply alternative", landing where its evidence said.
#include "WorkbenchFixture.h"

#include "core/analysis/AnalysisResult.h"
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
        // yolov8n's padding group: no concrete fix, a what-if that aligns every padded tensor.
        int row = -1;
        for (int i = 0; i < int(before->analysis->findings.size()); ++i)
            if (before->analysis->findings[size_t(i)].rule == RuleId::G4_2)
                row = i;
        QVERIFY(row >= 0);
        const Finding& pad = before->analysis->findings[size_t(row)];
        QVERIFY(pad.fix.empty() && !pad.whatIf.empty() && pad.wasteUpperBoundMs);
        QTreeWidgetItem* item = tree->topLevelItem(row);
        // Columns: fix gain, waste, rule, severity, title. No gain is claimed; the waste is an upper bound.
        QCOMPARE(item->text(0), QStringLiteral("-"));
        QCOMPARE(item->text(1), QString::number(*pad.wasteUpperBoundMs, 'f', 3));
        QCOMPARE(item->text(3), QStringLiteral("low"));
        QCOMPARE(item->text(2), QStringLiteral("G4.2"));
        tree->setCurrentItem(item);
        QVERIFY(!panel->applyButton()->isEnabled());
        QVERIFY(panel->whatIfButton()->isEnabled());
        const double startMs = before->cost.perImageMs;
        const double waste = *pad.wasteUpperBoundMs;
        panel->whatIfButton()->click();
        QVERIFY(
            fixture::waitSettled(w, [&](const Snapshot& s) { return s.generation != before->generation; }));
        // The what-if lands where its upper bound said, as one step in the history.
        QVERIFY(qAbs((startMs - w.snapshot()->cost.perImageMs) - waste) < 1e-9);
        QCOMPARE(int(w.snapshot()->history.size()), 1);
        w.controller()->undo();
        QVERIFY(fixture::waitSettled(w, [&](const Snapshot& s) { return s.historyPosition == 0; }));
        QVERIFY(qAbs(w.snapshot()->cost.perImageMs - startMs) < 1e-9);

        // The SiLU finding's concrete fix: applied, it lands on its gain; undone, on the start.
        const auto settled = w.snapshot();
        int siluRow = -1;
        for (int i = 0; i < int(settled->analysis->findings.size()); ++i)
            if (settled->analysis->findings[size_t(i)].cause == "activation SiLU (Sigmoid + Mul)")
                siluRow = i;
        QVERIFY(siluRow >= 0);
        const Finding& silu = settled->analysis->findings[size_t(siluRow)];
        QVERIFY(!silu.fix.empty() && silu.estimatedGainMs);
        const double gain = *silu.estimatedGainMs;
        tree->setCurrentItem(tree->topLevelItem(siluRow));
        QVERIFY(panel->applyButton()->isEnabled());
        panel->applyButton()->click();
        QVERIFY(
            fixture::waitSettled(w, [&](const Snapshot& s) { return s.generation != settled->generation; }));
        QVERIFY(qAbs((startMs - w.snapshot()->cost.perImageMs) - gain) < 1e-9);
        w.controller()->undo();
        QVERIFY(fixture::waitSettled(w, [&](const Snapshot& s) { return s.historyPosition == 0; }));
        QVERIFY(qAbs(w.snapshot()->cost.perImageMs - startMs) < 1e-9);

        // The input-size finding (issue 48) offers a larger size as its alternative: the button shows for it
        // alone and lands on the latency per image its evidence measured for that size.
        const auto again = w.snapshot();
        int sizeRow = -1;
        for (int i = 0; i < int(again->analysis->findings.size()); ++i)
            if (again->analysis->findings[size_t(i)].fixSearch == FixSearch::InputResolution)
                sizeRow = i;
        QVERIFY(sizeRow >= 0);
        const Finding& size = again->analysis->findings[size_t(sizeRow)];
        QVERIFY(!size.alternativeFix.empty());
        double statedMs = -1;
        for (const auto& c : size.evidence.at("candidates"))
            if (c.at("shape")[2] == size.evidence.at("larger")[0])
                statedMs = c.at("latency_ms_per_image").get<double>();
        QVERIFY(statedMs > 0);
        tree->setCurrentItem(tree->topLevelItem(siluRow));
        QVERIFY(panel->alternativeButton()->isHidden());
        tree->setCurrentItem(tree->topLevelItem(sizeRow));
        QVERIFY(!panel->alternativeButton()->isHidden());
        panel->alternativeButton()->click();
        QVERIFY(
            fixture::waitSettled(w, [&](const Snapshot& s) { return s.generation != again->generation; }));
        QVERIFY(qAbs(w.snapshot()->cost.perImageMs - statedMs) < 1e-9);
        w.controller()->undo();
        QVERIFY(fixture::waitSettled(w, [&](const Snapshot& s) { return s.historyPosition == 0; }));
    }
};

QTEST_MAIN(TestFindingsPanel)
#include "tst_findings_panel.moc"
