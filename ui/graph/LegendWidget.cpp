// SPDX-License-Identifier: MIT
#include "LegendWidget.h"

#include "NodeColoring.h"

#include <QPainter>

namespace bpu::ui {

namespace {
constexpr int kPad = 8;
constexpr int kSwatch = 12;
constexpr int kRow = 17;
} // namespace

LegendWidget::LegendWidget(QWidget* parent)
    : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
}

void LegendWidget::setColoring(const NodeColoring* coloring) {
    title_ = coloring ? coloring->legendTitle() : QString();
    rows_ = coloring ? coloring->legend() : QVector<QPair<QString, QColor>>{};
    setVisible(coloring != nullptr);
    updateGeometry();
    resize(sizeHint());
    update();
}

QSize LegendWidget::sizeHint() const {
    QFont bold = font();
    bold.setBold(true);
    int w = QFontMetrics(bold).horizontalAdvance(title_);
    const QFontMetrics fm(font());
    for (const auto& row : rows_)
        w = std::max(w, kSwatch + 6 + fm.horizontalAdvance(row.first));
    return {w + 2 * kPad, 2 * kPad + kRow + kRow * static_cast<int>(rows_.size())};
}

void LegendWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    QColor bg = palette().color(QPalette::Window);
    bg.setAlphaF(0.88f);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(bg);
    p.drawRoundedRect(rect().adjusted(0, 0, -1, -1), 4, 4);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(QRect(kPad, kPad, width() - 2 * kPad, kRow), Qt::AlignLeft | Qt::AlignVCenter, title_);
    p.setFont(font());
    int y = kPad + kRow;
    for (const auto& row : rows_) {
        // Unlabelled rows (inner steps of a heat ramp) join their neighbours into one bar.
        p.fillRect(QRect(kPad, y, kSwatch, kRow), row.second);
        p.drawText(QRect(kPad + kSwatch + 6, y, width() - kPad * 2 - kSwatch - 6, kRow),
                   Qt::AlignLeft | Qt::AlignVCenter, row.first);
        y += kRow;
    }
}

} // namespace bpu::ui
