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
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Click to fold or unfold the legend"));
}

void LegendWidget::setCollapsed(bool collapsed) {
    if (collapsed == collapsed_)
        return;
    collapsed_ = collapsed;
    relayout();
    emit collapsedChanged(collapsed);
}

void LegendWidget::mousePressEvent(QMouseEvent*) {
    userChose_ = true;
    setCollapsed(!collapsed_);
}

void LegendWidget::setColoring(const NodeColoring* coloring) {
    title_ = coloring ? coloring->legendTitle() : QString();
    rows_ = coloring ? coloring->legend() : QVector<QPair<QString, QColor>>{};
    setVisible(coloring != nullptr);
    relayout();
}

void LegendWidget::setHorizontal(bool horizontal) {
    if (horizontal == horizontal_)
        return;
    horizontal_ = horizontal;
    relayout();
}

/// The size follows the content (rows, title, folded or not, which way it lies): re-measured and repainted.
void LegendWidget::relayout() {
    updateGeometry();
    resize(sizeHint());
    update();
}

QSize LegendWidget::sizeHint() const {
    QFont bold = font();
    bold.setBold(true);
    int w = QFontMetrics(bold).horizontalAdvance(title_);
    const QFontMetrics fm(font());
    if (horizontal_) {
        // Title, then per row its swatch (an unlabelled step of a heat ramp: a narrow one, joining its
        // neighbours into a bar) and its label.
        w += 2 * kPad + (collapsed_ ? kSwatch : 0);
        if (!collapsed_)
            for (const auto& row : rows_)
                w += row.first.isEmpty() ? kSwatch / 2 : kSwatch + 4 + fm.horizontalAdvance(row.first) + kPad;
        return {w, kRow + kPad};
    }
    for (const auto& row : rows_)
        w = std::max(w, kSwatch + 6 + fm.horizontalAdvance(row.first));
    const int rows = collapsed_ ? 0 : static_cast<int>(rows_.size());
    return {w + 2 * kPad + (collapsed_ ? kSwatch : 0), 2 * kPad + kRow + kRow * rows};
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
    if (horizontal_) {
        const int y = (height() - kRow) / 2;
        const QString title = collapsed_ ? title_ + QStringLiteral(" ▸") : title_ + QStringLiteral(":");
        p.drawText(QRect(kPad, y, width(), kRow), Qt::AlignLeft | Qt::AlignVCenter, title);
        if (collapsed_)
            return;
        p.setFont(font());
        const QFontMetrics fm(font());
        int x = kPad + QFontMetrics(bold).horizontalAdvance(title) + kPad;
        for (const auto& row : rows_) {
            if (row.first.isEmpty()) {
                p.fillRect(QRect(x, y + 2, kSwatch / 2, kRow - 4), row.second);
                x += kSwatch / 2;
                continue;
            }
            p.fillRect(QRect(x, y + 2, kSwatch, kRow - 4), row.second);
            x += kSwatch + 4;
            p.drawText(QRect(x, y, width(), kRow), Qt::AlignLeft | Qt::AlignVCenter, row.first);
            x += fm.horizontalAdvance(row.first) + kPad;
        }
        return;
    }
    p.drawText(QRect(kPad, kPad, width() - 2 * kPad, kRow), Qt::AlignLeft | Qt::AlignVCenter,
               collapsed_ ? title_ + QStringLiteral(" ▸") : title_);
    if (collapsed_)
        return;
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
