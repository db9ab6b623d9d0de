// SPDX-License-Identifier: MIT
#include "PlanPanel.h"

#include "core/analysis/FindingKinds.h"
#include "ui/session/SessionController.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace bpu::ui {

namespace {

// The fix's title is long and the numbers short: the title goes last and takes the rest of the width.
enum Column { Tick, Rule, Saves, LatencyAfter, FpsAfter, Fix, Columns };

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter) {
    auto* it = new QTableWidgetItem(text);
    it->setFlags(it->flags() & ~Qt::ItemIsEditable);
    it->setTextAlignment(align);
    return it;
}

} // namespace

PlanPanel::PlanPanel(SessionController* controller, QWidget* parent)
    : QWidget(parent)
    , controller_(controller)
    , summary_(new QLabel(this))
    , compute_(new QPushButton(tr("&Compute plan"), this))
    , cancel_(new QPushButton(tr("Cancel"), this))
    , apply_(new QPushButton(tr("&Apply ticked steps"), this))
    , table_(new QTableWidget(0, Columns, this)) {
    summary_->setWordWrap(true);
    summary_->setText(tr("The top fixes applied together, each re-estimated on top of the ones before it. "
                         "Compute the plan for the current state."));
    table_->setHorizontalHeaderLabels(
        {QString(), tr("Rule"), tr("Saves (us)"), tr("Latency after (ms)"), tr("FPS after"), tr("Fix")});
    table_->verticalHeader()->setVisible(true);
    table_->setWordWrap(false);
    for (int c = Tick; c < Fix; ++c)
        table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(Fix, QHeaderView::Stretch);
    table_->horizontalHeaderItem(Tick)->setToolTip(tr("Apply this step"));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setToolTip(tr("Latency after a step assumes every earlier step is applied too."));
    cancel_->setVisible(false);
    apply_->setEnabled(false);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(compute_);
    buttons->addWidget(cancel_);
    buttons->addStretch();
    buttons->addWidget(apply_);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(summary_);
    lay->addLayout(buttons);
    lay->addWidget(table_, 1);

    connect(compute_, &QPushButton::clicked, this, &PlanPanel::compute);
    connect(cancel_, &QPushButton::clicked, this, [this] { controller_->jobs()->cancel(JobLane::Plan); });
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* it) {
        if (it->column() == Tick)
            updateApply();
    });
    connect(apply_, &QPushButton::clicked, this, [this] {
        if (!plan_ || !snapshot_ || planFor_ != snapshot_->generation)
            return;
        EditList edits;
        int steps = 0;
        for (int r = 0; r < table_->rowCount() && size_t(r) < plan_->steps.size(); ++r) {
            if (table_->item(r, Tick)->checkState() != Qt::Checked)
                continue;
            const EditList& e = plan_->steps[size_t(r)].edits;
            edits.insert(edits.end(), e.begin(), e.end());
            ++steps;
        }
        if (!edits.empty())
            emit applyRequested(edits, steps == 1 ? tr("Plan: 1 step") : tr("Plan: %1 steps").arg(steps));
    });
}

void PlanPanel::setSnapshot(SnapshotPtr s) {
    const bool otherModel = !s || !snapshot_ || s->modelId != snapshot_->modelId;
    snapshot_ = std::move(s);
    if (otherModel) {
        // Another model: its plan means nothing here, and a job still planning the old one is stale.
        controller_->jobs()->cancel(JobLane::Plan);
        plan_.reset();
        planFor_ = 0;
        table_->setRowCount(0);
        summary_->setText(tr("The top fixes applied together, each re-estimated on top of the ones before "
                             "it. Compute the plan for the current state."));
        setBusy(false);
    } else if (plan_ && planFor_ != snapshot_->generation) {
        // An edit since: the plan stays readable but is no longer the state's, so it cannot be applied.
        summary_->setText(
            tr("The model changed since this plan was computed: compute it again to apply it."));
    }
    updateApply();
}

void PlanPanel::compute() {
    if (!snapshot_)
        return;
    setBusy(true);
    summary_->setText(tr("Computing the plan: one re-estimate per step..."));
    controller_->plan(snapshot_->modelId, [this](JobOutcome outcome,
                                                 std::shared_ptr<const OptimizationPlan> plan, uint64_t state,
                                                 const QString& error) {
        setBusy(false);
        if (outcome == JobOutcome::Cancelled) {
            summary_->setText(tr("Plan cancelled."));
            return;
        }
        if (outcome == JobOutcome::Failed || !plan) {
            summary_->setText(tr("The plan could not be computed: %1").arg(error));
            return;
        }
        // The plan is for the state the engine copied, which may be newer than the one shown at the click
        // (an edit queued before it) or older than the one shown now.
        planFor_ = state;
        show(std::move(plan));
        if (snapshot_ && snapshot_->generation != state)
            summary_->setText(
                tr("The model changed since this plan was computed: compute it again to apply it."));
    });
}

void PlanPanel::show(std::shared_ptr<const OptimizationPlan> plan) {
    plan_ = std::move(plan);
    const QSignalBlocker block(table_);
    table_->setRowCount(int(plan_->steps.size()));
    for (size_t i = 0; i < plan_->steps.size(); ++i) {
        const PlanStep& st = plan_->steps[i];
        const int r = int(i);
        auto* tick = cell(QString());
        tick->setFlags(tick->flags() | Qt::ItemIsUserCheckable);
        tick->setCheckState(Qt::Checked);
        table_->setItem(r, Tick, tick);
        table_->setItem(r, Rule, cell(QString::fromLatin1(ruleName(st.rule))));
        auto* fix = cell(QString::fromStdString(st.title));
        fix->setToolTip(tr("Saves %1 us alone; %2 us on top of the steps above")
                            .arg(st.standaloneGainMs * 1000.0, 0, 'f', 1)
                            .arg(st.gainMs * 1000.0, 0, 'f', 1));
        table_->setItem(r, Fix, fix);
        const auto right = Qt::AlignRight | Qt::AlignVCenter;
        table_->setItem(r, Saves, cell(QString::number(st.gainMs * 1000.0, 'f', 1), right));
        table_->setItem(r, LatencyAfter, cell(QString::number(st.latencyMsAfter, 'f', 3), right));
        table_->setItem(r, FpsAfter, cell(QString::number(st.fpsAfter, 'f', 1), right));
    }
    if (plan_->steps.empty()) {
        summary_->setText(tr("No fix the engine estimates as a latency gain."));
    } else {
        const int n = int(plan_->steps.size());
        summary_->setText(tr("%7 together: %1 ms (%2 FPS) -> %3 ms (%4 FPS). Gains overlap: %5 us combined "
                             "against %6 us summed alone.")
                              .arg(plan_->latencyMsBefore, 0, 'f', 3)
                              .arg(plan_->fpsBefore, 0, 'f', 1)
                              .arg(plan_->steps.back().latencyMsAfter, 0, 'f', 3)
                              .arg(plan_->steps.back().fpsAfter, 0, 'f', 1)
                              .arg(plan_->combinedGainMs() * 1000.0, 0, 'f', 1)
                              .arg(plan_->sumOfStandaloneGainsMs() * 1000.0, 0, 'f', 1)
                              .arg(n == 1 ? tr("The one step") : tr("All %1 steps").arg(n)));
    }
    updateApply();
}

void PlanPanel::setBusy(bool busy) {
    compute_->setEnabled(!busy);
    cancel_->setVisible(busy);
}

void PlanPanel::updateApply() {
    bool any = false;
    for (int r = 0; r < table_->rowCount(); ++r)
        any = any || (table_->item(r, Tick) && table_->item(r, Tick)->checkState() == Qt::Checked);
    apply_->setEnabled(any && plan_ && snapshot_ && planFor_ == snapshot_->generation);
}

} // namespace bpu::ui
