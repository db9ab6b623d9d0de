// SPDX-License-Identifier: MIT
#include "ComparePanel.h"

#include "core/analysis/AnalysisResult.h"
#include "core/compare/ModelComparison.h"
#include "core/edit/Edit.h"
#include "ui/session/SessionController.h"
#include "ui/style/Palette.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace bpu::ui {

ComparePanel::ComparePanel(SessionController* controller, QWidget* parent)
    : QWidget(parent)
    , controller_(controller)
    , header_(new QLabel(this))
    , clear_(new QPushButton(tr("Stop comparing"), this))
    , table_(new QTableWidget(0, 4, this))
    , baseline_(new QLabel(this))
    , history_(new QListWidget(this))
    , keptLabel_(new QLabel(this))
    , kept_(new QListWidget(this))
    , removeKept_(new QPushButton(tr("Remove"), this)) {
    header_->setWordWrap(true);
    header_->hide();
    clear_->hide();
    clear_->setToolTip(tr("Show the what-if baseline again"));
    connect(clear_, &QPushButton::clicked, this, &ComparePanel::clearComparisonRequested);
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("Baseline"), tr("Current"), tr("Delta")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    baseline_->setWordWrap(true);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(header_, 1);
    top->addWidget(clear_, 0, Qt::AlignTop);
    lay->addLayout(top);
    lay->addWidget(baseline_);
    lay->addWidget(table_, 2);
    lay->addWidget(new QLabel(tr("Edit history (click a step to go back to it):"), this));
    lay->addWidget(history_, 1);
    keptLabel_->setWordWrap(true);
    kept_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    kept_->setWordWrap(true); // the reason is the point: never cut off at the dock's edge
    removeKept_->setToolTip(
        tr("Let the selected kept edits go: the project no longer carries them once saved "
           "(Delete)"));
    removeKept_->setEnabled(false);
    auto* keptRow = new QHBoxLayout;
    keptRow->addWidget(keptLabel_, 1);
    keptRow->addWidget(removeKept_, 0, Qt::AlignTop);
    lay->addLayout(keptRow);
    lay->addWidget(kept_, 1);
    connect(kept_, &QListWidget::itemSelectionChanged, this,
            [this] { removeKept_->setEnabled(!kept_->selectedItems().isEmpty()); });
    connect(removeKept_, &QPushButton::clicked, this, &ComparePanel::removeSelectedKept);
    auto* del = new QShortcut(QKeySequence::Delete, kept_, nullptr, nullptr, Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, &ComparePanel::removeSelectedKept);
    // Row 0 is the model as loaded; row k the state after k steps. Undone steps stay listed, greyed.
    connect(history_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { controller_->goToStep(size_t(history_->row(item))); });
}

void ComparePanel::setSnapshot(SnapshotPtr s) {
    if (!s)
        return;
    snapshot_ = s;
    QSignalBlocker block(history_);
    history_->clear();
    history_->addItem(tr("<model as loaded>"));
    for (const QString& label : s->history)
        history_->addItem(label);
    const QColor undone = palette().color(QPalette::Disabled, QPalette::Text);
    for (int i = int(s->historyPosition) + 1; i < history_->count(); ++i)
        history_->item(i)->setForeground(undone);
    history_->setCurrentRow(int(s->historyPosition));
    showKept(*s);
    if (!comparison_) // else the comparison is refreshed for this state and shown by setComparison
        showBaseline(*s);
}

void ComparePanel::showKept(const Snapshot& s) {
    QSignalBlocker block(kept_);
    kept_->clear();
    const bool any = !s.kept.empty();
    keptLabel_->setVisible(any);
    kept_->setVisible(any);
    removeKept_->setVisible(any);
    removeKept_->setEnabled(false);
    if (!any)
        return;
    keptLabel_->setText(tr("%n edit(s) kept aside: they did not apply to this model, and stay in the project "
                           "when it is saved:",
                           nullptr, int(s.kept.size())));
    const QColor grey = palette().color(QPalette::Disabled, QPalette::Text);
    for (const KeptEdit& k : s.kept) {
        auto* item = new QListWidgetItem(
            tr("%1 - %2").arg(QString::fromStdString(k.edit->describe()), k.reason), kept_);
        item->setForeground(grey);
        item->setToolTip(tr("From %1. Not applied: %2").arg(k.origin, k.reason));
    }
}

void ComparePanel::removeSelectedKept() {
    const auto s = snapshot_;
    if (!s)
        return;
    // Highest row first: each removal shifts the rows after it.
    QList<int> rows;
    for (QListWidgetItem* item : kept_->selectedItems())
        rows << kept_->row(item);
    std::sort(rows.begin(), rows.end(), std::greater<>());
    for (int row : rows)
        controller_->removeKept(s->modelId, size_t(row));
}

void ComparePanel::showBaseline(const Snapshot& s) {
    const QString target = QString::fromStdString(s.target->name);
    baseline_->setText(
        s.baselineStep == 0 ? tr("Baseline: the model as loaded, on %1.").arg(target)
        : s.baselineStep == kNotAStep
            ? tr("Baseline: a state set earlier, no step of the history now (the model as "
                 "loaded with %n edit(s)), on %1.",
                 nullptr, int(s.baselineEdits.size()))
                  .arg(target)
            : tr("Baseline: the state after step %1 (Set baseline), on %2.").arg(s.baselineStep).arg(target));
    baseline_->show();
    const auto& b = *s.baselineSummary;
    const auto& c = s.analysis->summary;
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("Baseline"), tr("Current"), tr("Delta")});
    table_->horizontalHeaderItem(2)->setToolTip(QString());
    fill({
        {tr("Board, 1 thread (ms/image)"), s.baseline.perImageMs, s.cost.perImageMs, 3, true},
        {tr("FPS, 1 thread"), s.baseline.fps, s.cost.fps, 1, false},
        {tr("FPS, 2 threads"), s.baseline.fpsByThreads[1], s.cost.fpsByThreads[1], 1, false},
        {tr("BPU (static, ms)"), s.baseline.bpuMs, s.cost.bpuMs, 3, true},
        {tr("Batch"), double(s.baseline.batch), double(s.cost.batch), 0, false},
        {tr("CPU nodes"), double(b.cpuNodes), double(c.cpuNodes), 0, true},
        {tr("BPU segments"), double(b.bpuSegments), double(c.bpuSegments), 0, true},
        {tr("Q/DQ passes"), double(b.qdqPasses), double(c.qdqPasses), 0, true},
        {tr("Padding waste (MiB)"), b.paddingWasteBytes / 1048576.0, c.paddingWasteBytes / 1048576.0, 2,
         true},
        {tr("Fused groups"), double(b.fusedGroups), double(c.fusedGroups), 0, false},
        {tr("Missed fusions"), double(b.missedFusions), double(c.missedFusions), 0, true},
    });
}

void ComparePanel::setComparison(std::shared_ptr<const Comparison> c, const QString& otherName) {
    comparison_ = std::move(c);
    if (!comparison_)
        return clearComparison();
    const Comparison& k = *comparison_;
    header_->setText(
        tr("Compared with <b>%1</b>: %2 nodes matched (%3 by name, %4 by structure), %5 only here, "
           "%6 only there; %7 changed placement, %8 shape. Delta = %1 - this model.")
            .arg(otherName.toHtmlEscaped())
            .arg(k.nodes.size())
            .arg(k.matchedByName)
            .arg(k.matchedByStructure)
            .arg(k.unmatchedA.size())
            .arg(k.unmatchedB.size())
            .arg(k.placementChanges)
            .arg(k.shapeChanges));
    header_->show();
    clear_->show();
    baseline_->hide();
    // The other file's name is in the line above and the header's tooltip: a column header stays short.
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("This model"), tr("Other"), tr("Delta")});
    table_->horizontalHeaderItem(2)->setToolTip(otherName);
    const CompareSide &a = k.a, &b = k.b;
    fill({
        {tr("Board, 1 thread (ms)"), a.figures.latencyMs, b.figures.latencyMs, 3, true},
        {tr("BPU (static, ms)"), a.figures.bpuMs, b.figures.bpuMs, 3, true},
        {tr("FPS, 1 thread"), a.figures.fps, b.figures.fps, 1, false},
        {tr("Nodes"), double(a.nodes), double(b.nodes), 0, true},
        {tr("CPU nodes"), double(a.cpuNodes), double(b.cpuNodes), 0, true},
        {tr("BPU segments"), double(a.bpuSegments), double(b.bpuSegments), 0, true},
        {tr("Padding waste (MiB)"), a.paddingWasteBytes / 1048576.0, b.paddingWasteBytes / 1048576.0, 2,
         true},
        {tr("Padding waste (%)"), a.paddingWasteRatio * 100, b.paddingWasteRatio * 100, 1, true},
        {tr("Findings"), double(a.findings), double(b.findings), 0, true},
    });
}

void ComparePanel::clearComparison() {
    comparison_.reset();
    header_->hide();
    clear_->hide();
    if (auto s = snapshot_)
        setSnapshot(s);
}

void ComparePanel::fill(const std::vector<Row>& rows) {
    table_->setRowCount(int(rows.size()));
    for (int i = 0; i < int(rows.size()); ++i) {
        const Row& r = rows[i];
        const double d = r.cur - r.base;
        table_->setItem(i, 0, new QTableWidgetItem(r.name));
        table_->setItem(i, 1, new QTableWidgetItem(QString::number(r.base, 'f', r.decimals)));
        table_->setItem(i, 2, new QTableWidgetItem(QString::number(r.cur, 'f', r.decimals)));
        auto* di = new QTableWidgetItem(std::abs(d) < 1e-9 ? QString() : QString::number(d, 'f', r.decimals));
        if (std::abs(d) > 1e-9)
            di->setForeground((d < 0) == r.lowerIsBetter ? style::better() : style::worse());
        table_->setItem(i, 3, di);
    }
}

} // namespace bpu::ui
