// SPDX-License-Identifier: MIT
// The Plan dock (issue 13): the engine's optimization plan shown step by step, ticked steps applied as one
// undoable what-if. What the GUI applies must land exactly where the plan said it would: the plan is
// computed on a copy of the session, the applied steps go through the controller's edit path, so equal
// latencies show the two paths agree.
#include "WorkbenchFixture.h"

#include "core/advice/OptimizationPlan.h"
#include "ui/whatif/PlanPanel.h"

#include <QLabel>
#include <QPushButton>
#include <QTableWidget>

using namespace bpu;
using namespace bpu::ui;

namespace {

bool waitForPlan(MainWindow& w, uint64_t generation) {
    return QTest::qWaitFor(
        [&] {
            const auto s = w.snapshot();
            return w.planPanel()->plan() && w.planPanel()->applyButton()->isEnabled() && s &&
                   s->generation == generation;
        },
        120000);
}

} // namespace

class TestPlanPanel : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { fixture::isolateSettings(); }

    void tickedStepsApplyAsOneUndoableStep() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(fixture::openAndSettle(w, fixture::sample("ssdlite320_mobilenet_v3_large.onnx")));
        const auto before = w.snapshot();
        const double startMs = before->cost.latencyMs;

        PlanPanel* panel = w.planPanel();
        QVERIFY(!panel->applyButton()->isEnabled()); // nothing computed yet
        panel->compute();
        QVERIFY(waitForPlan(w, before->generation));
        const auto plan = panel->plan();
        // resnet50 has several concrete fixes with a gain (group convs in its memory-bound stages; batching
        // is a trade-off the plan leaves out): a plan of at least two steps, one row per step, every row
        // ticked.
        QVERIFY2(plan->steps.size() >= 2, "resnet50's plan has at least two steps");
        QCOMPARE(panel->table()->rowCount(), int(plan->steps.size()));
        QCOMPARE(plan->latencyMsBefore, startMs);
        for (int r = 0; r < panel->table()->rowCount(); ++r)
            QCOMPARE(panel->table()->item(r, 0)->checkState(), Qt::Checked);
        // The table prints the plan's cumulative figures, not its own arithmetic.
        QCOMPARE(panel->table()->item(0, 3)->text(), QString::number(plan->steps[0].latencyMsAfter, 'f', 3));

        // The ticks are a prefix ("latency after" assumes every earlier step): unticking a step unticks
        // those below it, ticking one ticks those above it.
        const int last = panel->table()->rowCount() - 1;
        panel->table()->item(0, 0)->setCheckState(Qt::Unchecked);
        for (int r = 0; r <= last; ++r)
            QCOMPARE(panel->table()->item(r, 0)->checkState(), Qt::Unchecked);
        QVERIFY(!panel->applyButton()->isEnabled());
        panel->table()->item(last, 0)->setCheckState(Qt::Checked);
        for (int r = 0; r <= last; ++r)
            QCOMPARE(panel->table()->item(r, 0)->checkState(), Qt::Checked);
        // The fixes left out are listed with why, when there are any.
        QCOMPARE(panel->skippedLabel()->isVisibleTo(panel), !plan->skipped.empty());

        // Only the first step: the state lands on the plan's first cumulative latency.
        for (int r = 1; r < panel->table()->rowCount(); ++r)
            panel->table()->item(r, 0)->setCheckState(Qt::Unchecked);
        QVERIFY(panel->applyButton()->isEnabled());
        panel->applyButton()->click();
        QVERIFY(
            fixture::waitSettled(w, [&](const Snapshot& s) { return s.generation != before->generation; }));
        QVERIFY(qAbs(w.snapshot()->cost.latencyMs - plan->steps[0].latencyMsAfter) < 1e-9);
        QCOMPARE(int(w.snapshot()->history.size()), 1);
        // The plan was for the state before the edit: it can no longer be applied.
        QVERIFY(!panel->applyButton()->isEnabled());

        // One undo takes the whole step back.
        w.controller()->undo();
        QVERIFY(fixture::waitSettled(w, [&](const Snapshot& s) { return s.historyPosition == 0; }));
        QVERIFY(qAbs(w.snapshot()->cost.latencyMs - startMs) < 1e-9);

        // Every step together, as one step in the history: the plan's last cumulative latency.
        panel->compute();
        QVERIFY(waitForPlan(w, w.snapshot()->generation));
        const auto again = panel->plan();
        const uint64_t generation = w.snapshot()->generation;
        panel->applyButton()->click();
        QVERIFY(fixture::waitSettled(w, [&](const Snapshot& s) { return s.generation != generation; }));
        QVERIFY(qAbs(w.snapshot()->cost.latencyMs - again->steps.back().latencyMsAfter) < 1e-9);
        QCOMPARE(int(w.snapshot()->historyPosition), 1);
    }

    void anotherModelClearsThePlan() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(fixture::openAndSettle(w, fixture::sample("ssdlite320_mobilenet_v3_large.onnx")));
        w.planPanel()->compute();
        QVERIFY(waitForPlan(w, w.snapshot()->generation));
        QVERIFY(fixture::openAndSettle(w, fixture::sample("resnet18.onnx")));
        QCOMPARE(w.planPanel()->table()->rowCount(), 0);
        QVERIFY(!w.planPanel()->plan());
        QVERIFY(!w.planPanel()->applyButton()->isEnabled());
    }
};

QTEST_MAIN(TestPlanPanel)
#include "tst_plan_panel.moc"
