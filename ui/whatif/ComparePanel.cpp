// SPDX-License-Identifier: MIT
#include "ComparePanel.h"

#include "ui/session/SessionController.h"
#include "ui/style/Palette.h"

#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace bpu::ui {

ComparePanel::ComparePanel(SessionController* controller, QWidget* parent)
    : QWidget(parent)
    , controller_(controller)
    , table_(new QTableWidget(0, 4, this))
    , baseline_(new QLabel(this))
    , history_(new QListWidget(this)) {
    table_->setHorizontalHeaderLabels({tr("Metric"), tr("Baseline"), tr("Current"), tr("Delta")});
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    baseline_->setWordWrap(true);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(baseline_);
    lay->addWidget(table_, 2);
    lay->addWidget(new QLabel(tr("Edit history (click a step to go back to it):"), this));
    lay->addWidget(history_, 1);
    // Row 0 is the model as loaded; row k the state after k steps. Undone steps stay listed, greyed.
    connect(history_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        controller_->goToStep(size_t(history_->row(item)));
    });
}

void ComparePanel::setSnapshot(SnapshotPtr s) {
    if (!s)
        return;
    baseline_->setText(s->baselineStep == 0
                           ? tr("Baseline: the model as loaded, on %1.")
                                 .arg(QString::fromStdString(s->target->name))
                           : tr("Baseline: the state after step %1 (Set baseline), on %2.")
                                 .arg(s->baselineStep)
                                 .arg(QString::fromStdString(s->target->name)));
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
            di->setForeground((d < 0) == r.lowerIsBetter ? style::better() : style::worse());
        table_->setItem(i, 3, di);
    }
    QSignalBlocker block(history_);
    history_->clear();
    history_->addItem(tr("<model as loaded>"));
    for (const QString& label : s->history)
        history_->addItem(label);
    const QColor undone = palette().color(QPalette::Disabled, QPalette::Text);
    for (int i = int(s->historyPosition) + 1; i < history_->count(); ++i)
        history_->item(i)->setForeground(undone);
    history_->setCurrentRow(int(s->historyPosition));
}

} // namespace bpu::ui
