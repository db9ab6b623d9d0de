// SPDX-License-Identifier: MIT
#include "ComparePanel.h"

#include "core/compare/ModelComparison.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QUndoView>
#include <QVBoxLayout>

namespace bpu::ui {

ComparePanel::ComparePanel(QUndoStack* stack, QWidget* parent)
    : QWidget(parent)
    , header_(new QLabel(this))
    , clear_(new QPushButton(tr("Stop comparing"), this))
    , table_(new QTableWidget(0, 4, this))
    , history_(new QUndoView(stack, this)) {
    header_->setWordWrap(true);
    header_->hide();
    clear_->hide();
    clear_->setToolTip(tr("Show the what-if baseline again"));
    connect(clear_, &QPushButton::clicked, this, &ComparePanel::clearComparisonRequested);
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("Baseline"), tr("Current"), tr("Delta")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    history_->setEmptyLabel(tr("<loaded model>"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(header_, 1);
    top->addWidget(clear_, 0, Qt::AlignTop);
    lay->addLayout(top);
    lay->addWidget(table_, 2);
    lay->addWidget(new QLabel(tr("Edit history (click to go back):"), this));
    lay->addWidget(history_, 1);
}

void ComparePanel::setSnapshot(SnapshotPtr s) {
    if (!s)
        return;
    snapshot_ = s;
    if (comparison_)
        return; // the comparison is refreshed for this state and shown by setComparison
    const auto& b = s->baselineSummary;
    const auto& c = s->analysis.summary;
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("Baseline"), tr("Current"), tr("Delta")});
    table_->horizontalHeaderItem(2)->setToolTip(QString());
    fill({
        {tr("Latency (ms/image)"), s->baseline.perImageMs, s->cost.perImageMs, 3, true},
        {tr("FPS"), s->baseline.fps, s->cost.fps, 1, false},
        {tr("Batch"), double(s->baseline.batch), double(s->cost.batch), 0, false},
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
    // The other file's name is in the line above and the header's tooltip: a column header stays short.
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("This model"), tr("Other"), tr("Delta")});
    table_->horizontalHeaderItem(2)->setToolTip(otherName);
    const CompareSide &a = k.a, &b = k.b;
    fill({
        {tr("Latency (ms/inference)"), a.figures.latencyMs, b.figures.latencyMs, 3, true},
        {tr("BPU time alone (ms)"), a.figures.bpuMs, b.figures.bpuMs, 3, true},
        {tr("FPS"), a.figures.fps, b.figures.fps, 1, false},
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
            di->setForeground((d < 0) == r.lowerIsBetter ? QColor(0x00, 0x80, 0x40) : QColor(0xc0, 0x30, 0x30));
        table_->setItem(i, 3, di);
    }
}

} // namespace bpu::ui
