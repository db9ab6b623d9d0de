// SPDX-License-Identifier: MIT
#include "ChartBase.h"

#include "ChartStyle.h"

#include <QEvent>

namespace bpu::ui::charts {

ChartBase::ChartBase(QWidget* parent)
    : QCustomPlot(parent) {
    setFont(chartFont(9));
    xAxis->setTickLabelFont(chartFont(8));
    yAxis->setTickLabelFont(chartFont(8));
    xAxis->setLabelFont(chartFont(9));
    yAxis->setLabelFont(chartFont(9));
    legend->setFont(chartFont(8));
    setMinimumSize(320, 200);
}

void ChartBase::setTitle(const QString& title) {
    if (title.isEmpty()) {
        if (title_) {
            plotLayout()->remove(title_);
            plotLayout()->simplify();
            title_ = nullptr;
        }
        return;
    }
    if (!title_) {
        plotLayout()->insertRow(0);
        title_ = new QCPTextElement(this, title, chartFont(10, true));
        plotLayout()->addElement(0, 0, title_);
    }
    title_->setText(title);
}

void ChartBase::setLegendBelow(bool shown, int columns) {
    legend->setVisible(shown);
    if (shown && !legendRow_) {
        axisRect()->insetLayout()->take(legend);
        legendRow_ = new QCPLayoutGrid;
        plotLayout()->addElement(plotLayout()->rowCount(), 0, legendRow_);
        legendRow_->setMargins(QMargins(0, 0, 0, 4));
        legendRow_->addElement(0, 0, legend);
        plotLayout()->setRowStretchFactor(plotLayout()->rowCount() - 1, 0.001);
    } else if (!shown && legendRow_) {
        // Back into the axis rect's inset layout (hidden), which owns it again; the empty row goes.
        legendRow_->take(legend);
        plotLayout()->remove(legendRow_);
        plotLayout()->simplify();
        legendRow_ = nullptr;
        axisRect()->insetLayout()->addElement(legend, Qt::AlignBottom | Qt::AlignRight);
    }
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(columns);
}

void ChartBase::refresh() {
    rebuild();
    applyTheme(this);
    if (title_)
        title_->setTextColor(palette().color(QPalette::WindowText));
    replot(QCustomPlot::rpQueuedRefresh);
}

void ChartBase::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange) {
        applyTheme(this);
        if (title_)
            title_->setTextColor(palette().color(QPalette::WindowText));
        replot(QCustomPlot::rpQueuedRefresh);
    }
    QCustomPlot::changeEvent(e);
}

void ChartBase::renderTo(QCPPainter* painter, const QSize& size) {
    painter->setMode(QCPPainter::pmVectorized);
    painter->setMode(QCPPainter::pmNoCaching);
    painter->setMode(QCPPainter::pmNonCosmetic);
    toPainter(painter, size.width(), size.height());
}

QPicture ChartBase::toPicture(const QSize& size) {
    QPicture picture;
    QCPPainter painter(&picture);
    renderTo(&painter, size);
    painter.end();
    return picture;
}

} // namespace bpu::ui::charts
