// SPDX-License-Identifier: MIT
#include "PlanPanel.h"

#include "core/advice/FindingKinds.h"
#include "core/report/PlanText.h"
#include "core/report/ReportFormat.h"
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

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// What the panel says before any plan (a new model too), and over a plan made for an older state.
QString introText() {
    return PlanPanel::tr("The top fixes applied together, each re-estimated on top of the ones before it. "
                         "Compute the plan for the current state.");
}
QString staleText() {
    return PlanPanel::tr("The model changed since this plan was computed: compute it again to apply it.");
}

} // namespace

PlanPanel::PlanPanel(SessionController* controller, QWidget* parent)
    : QWidget(parent)
    , controller_(controller)
    , summary_(new QLabel(this))
    , compute_(new QPushButton(tr("&Compute plan"), this))
    , cancel_(new QPushButton(tr("Cancel"), this))
    , apply_(new QPushButton(tr("&Apply ticked steps"), this))
    , table_(new QTableWidget(0, Columns, this))
    , skipped_(new QLabel(this)) {
    summary_->setWordWrap(true);
    summary_->setText(introText());
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
    skipped_->setWordWrap(true);
    skipped_->setForegroundRole(QPalette::PlaceholderText); // greyed: fixes that are not part of the plan
    skipped_->setVisible(false);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(compute_);
    buttons->addWidget(cancel_);
    buttons->addStretch();
    buttons->addWidget(apply_);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(summary_);
    lay->addLayout(buttons);
    lay->addWidget(table_, 1);
    lay->addWidget(skipped_);

    connect(compute_, &QPushButton::clicked, this, &PlanPanel::compute);
    connect(cancel_, &QPushButton::clicked, this, [this] { controller_->jobs()->cancel(JobLane::Plan); });
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* it) {
        if (it->column() != Tick)
            return;
        tickAsPrefix(it->row());
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
        skipped_->clear();
        skipped_->setVisible(false);
        summary_->setText(introText());
        setBusy(false);
    } else if (plan_ && planFor_ != snapshot_->generation) {
        // An edit since: the plan stays readable but is no longer the state's, so it cannot be applied.
        summary_->setText(staleText());
    }
    updateApply();
}

void PlanPanel::compute() {
    if (!snapshot_)
        return;
    setBusy(true);
    summary_->setText(tr("Computing the plan: one re-estimate per step..."));
    controller_->plan(snapshot_->modelId,
                      [this](JobOutcome outcome, std::shared_ptr<const OptimizationPlan> plan, uint64_t state,
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
                          // The plan is for the state the engine copied, which may be newer than the one
                          // shown at the click (an edit queued before it) or older than the one shown now.
                          planFor_ = state;
                          show(std::move(plan));
                          if (snapshot_ && snapshot_->generation != state)
                              summary_->setText(staleText());
                      });
}

void PlanPanel::show(std::shared_ptr<const OptimizationPlan> plan) {
    using namespace report;
    plan_ = std::move(plan);
    const QSignalBlocker block(table_);
    table_->setRowCount(int(plan_->steps.size()));
    const auto right = Qt::AlignRight | Qt::AlignVCenter;
    for (size_t i = 0; i < plan_->steps.size(); ++i) {
        const PlanStep& st = plan_->steps[i];
        const int r = int(i);
        auto* tick = cell(QString());
        tick->setFlags(tick->flags() | Qt::ItemIsUserCheckable);
        tick->setCheckState(Qt::Checked);
        table_->setItem(r, Tick, tick);
        table_->setItem(r, Rule, cell(QString::fromLatin1(ruleName(st.rule))));
        // Issue 62: the second part's steps need retraining; they come after every step that does not.
        QString title = st.retrains ? tr("needs retraining: %1").arg(text(st.title)) : text(st.title);
        if (st.unproven) // issue 62: its gain rests on an unidentified parameter or an unsourced assumption
            title = tr("unproven: %1").arg(title);
        auto* fix = cell(title);
        fix->setToolTip(
            tr("%1\nSaves %2 us alone; %3 us on top of the steps above")
                .arg(title, text(fmt::gainUs(st.standaloneGainMs)), text(fmt::gainUs(st.gainMs))));
        table_->setItem(r, Fix, fix);
        table_->setItem(r, Saves, cell(text(fmt::gainUs(st.gainMs)), right));
        table_->setItem(r, LatencyAfter, cell(text(fmt::ms(st.latencyMsAfter)), right));
        table_->setItem(r, FpsAfter, cell(text(fmt::fps(st.fpsAfter)), right));
    }
    // The report's sentence (core/report/PlanText), so the dock and the PDF never word the plan differently.
    QString summary = text(planSummary(*plan_));
    for (const bool retraining : {false, true})
        if (const std::string part = planPartTitle(*plan_, retraining); !part.empty())
            summary += QLatin1Char('\n') + text(part) + QLatin1Char('.');
    summary_->setText(summary);
    // The fixes the plan tried and left out, each with why: one line, the list in the tooltip.
    QStringList left;
    for (const std::string& line : planSkippedLines(*plan_))
        left << text(line);
    skipped_->setVisible(!left.isEmpty());
    skipped_->setText(
        left.size() == 1 ? tr("1 fix left out: %1").arg(left.front())
                         : tr("%1 fixes left out: %2").arg(left.size()).arg(left.join(QStringLiteral("; "))));
    // The tooltip adds the engine's own words (which node an earlier step removed) where there are any.
    QStringList tip;
    for (size_t i = 0; i < plan_->skipped.size() && i < size_t(left.size()); ++i)
        tip << (plan_->skipped[i].detail.empty() ? left[int(i)]
                                                 : left[int(i)] + QStringLiteral(" (") +
                                                       text(plan_->skipped[i].detail) + QLatin1Char(')'));
    skipped_->setToolTip(tip.join(QLatin1Char('\n')));
    updateApply();
}

void PlanPanel::tickAsPrefix(int row) {
    // "Latency after" assumes every earlier step: the ticked steps are always the first k. Ticking a step
    // ticks those above it, unticking one unticks those below.
    const bool on = table_->item(row, Tick)->checkState() == Qt::Checked;
    const QSignalBlocker block(table_);
    for (int r = 0; r < table_->rowCount(); ++r) {
        if ((on && r < row) || (!on && r > row))
            if (QTableWidgetItem* it = table_->item(r, Tick))
                it->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
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
