// SPDX-License-Identifier: MIT
#include "ComparePanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QUndoView>
#include <QVBoxLayout>

namespace bpu::ui {

ComparePanel::ComparePanel(QUndoStack* stack, QWidget* parent)
    : QWidget(parent), table_(new QTableWidget(0, 4, this)), history_(new QUndoView(stack, this)) {
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("Baseline"), tr("Current"), tr("Delta")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    history_->setEmptyLabel(tr("<loaded model>"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(table_, 2);
    lay->addWidget(new QLabel(tr("Edit history (click to go back):"), this));
    lay->addWidget(history_, 1);
}

void ComparePanel::setSnapshot(SnapshotPtr s) {
    if (!s)
        return;
    struct Row {
        QString name;
        double base, cur;
        int decimals;
        bool lowerIsBetter;
    };
    const auto& b = s->baselineSummary;
    const auto& c = s->analysis.summary;
    const Row rows[] = {
        {tr("Latency (ms/image)"), s->baseline.perImageMs, s->cost.perImageMs, 3, true},
        {tr("FPS"), s->baseline.fps, s->cost.fps, 1, false},
        {tr("Batch"), double(s->baseline.batch), double(s->cost.batch), 0, false},
        {tr("CPU nodes"), double(b.cpuNodes), double(c.cpuNodes), 0, true},
        {tr("BPU segments"), double(b.bpuSegments), double(c.bpuSegments), 0, true},
        {tr("Q/DQ passes"), double(b.qdqPasses), double(c.qdqPasses), 0, true},
        {tr("Padding waste (MiB)"), b.paddingWasteBytes / 1048576.0, c.paddingWasteBytes / 1048576.0, 2, true},
        {tr("Fused groups"), double(b.fusedGroups), double(c.fusedGroups), 0, false},
        {tr("Missed fusions"), double(b.missedFusions), double(c.missedFusions), 0, true},
    };
    table_->setRowCount(int(std::size(rows)));
    for (int i = 0; i < int(std::size(rows)); ++i) {
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
