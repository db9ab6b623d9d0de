// SPDX-License-Identifier: MIT
#pragma once

#include "QCustomPlotInclude.h"

#include <QPicture>
#include <QSize>

namespace bpu::ui::charts {

/// Common base of the BpuScope charts: a QCustomPlot that rebuilds its plottables from the value it was
/// given, recolours on palette changes (dark themes) and can draw itself as vectors into any painter.
class ChartBase : public QCustomPlot {
    Q_OBJECT
public:
    explicit ChartBase(QWidget* parent = nullptr);

    /// Draws the chart at `size` (logical units) into `painter` as vectors: no pixmap caching, no cosmetic
    /// pens, so it scales cleanly on a PDF.
    void renderTo(QCPPainter* painter, const QSize& size);
    /// The chart recorded as a QPicture of `size` logical units, replayable on any thread and device.
    QPicture toPicture(const QSize& size);
    /// The heading shown above the plot (empty hides it).
    void setTitle(const QString& title);
    /// Shows the legend in a row below the plot (`columns` entries per line, 0 = one line) or hides it.
    /// Below the plot it never covers a bar label, a point or a line.
    void setLegendBelow(bool shown, int columns = 0);

protected:
    /// Re-creates plottables and items from the current data; called on data and palette changes.
    virtual void rebuild() = 0;
    /// rebuild() + theme + a queued replot.
    void refresh();
    void changeEvent(QEvent* e) override;

private:
    QCPTextElement* title_ = nullptr;
    QCPLayoutGrid* legendRow_ = nullptr; ///< the row below the plot holding the legend, when shown
};

} // namespace bpu::ui::charts
