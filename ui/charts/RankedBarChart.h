// SPDX-License-Identifier: MIT
#pragma once

#include "ChartBase.h"
#include "core/report/ChartData.h"

#include <functional>

namespace bpu {
class Session;
}

namespace bpu::ui::charts {

/// Horizontal bars, largest on top, one colour per category with a legend, value and detail text at each bar.
/// Fed a report::BarSeries (the same data the PDF, HTML and JSON report show).
class RankedBarChart : public ChartBase {
    Q_OBJECT
public:
    explicit RankedBarChart(QWidget* parent = nullptr);

    void setSeries(report::BarSeries series);
    const report::BarSeries& series() const { return series_; }
    /// Colour of a category (default: the categorical palette).
    void setCategoryColors(std::function<QColor(int)> colorOf);
    /// Longest label shown before it is elided at the front (default 34 characters).
    void setLabelChars(int chars);

protected:
    void rebuild() override;

private:
    report::BarSeries series_;
    std::function<QColor(int)> colorOf_;
    int labelChars_ = 34;
};

/// Top-N layers by estimated latency, coloured by placement.
class LayerLatencyChart : public RankedBarChart {
    Q_OBJECT
public:
    explicit LayerLatencyChart(QWidget* parent = nullptr);
    void setSession(const Session& s, size_t n = 20);
};

/// Padding waste per layer (KiB), coloured by the alignment rule that padded it.
class PaddingWasteChart : public RankedBarChart {
    Q_OBJECT
public:
    explicit PaddingWasteChart(QWidget* parent = nullptr);
    void setSession(const Session& s, size_t n = 20);
};

/// Estimated latency per op type.
class OpBreakdownChart : public RankedBarChart {
    Q_OBJECT
public:
    explicit OpBreakdownChart(QWidget* parent = nullptr);
    void setSession(const Session& s, size_t n = 15);
};

} // namespace bpu::ui::charts
