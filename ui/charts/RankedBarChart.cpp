// SPDX-License-Identifier: MIT
#include "RankedBarChart.h"

#include "ChartStyle.h"
#include "core/edit/Session.h"
#include "core/report/ReportFormat.h"

#include <algorithm>
#include <cmath>

namespace bpu::ui::charts {

RankedBarChart::RankedBarChart(QWidget* parent)
    : ChartBase(parent)
    , colorOf_(categoryColor) {
    yAxis->grid()->setVisible(false);
    yAxis->setRangeReversed(true);
    yAxis->setTickLength(0, 0);
    yAxis->setSubTicks(false);
    legend->setVisible(false);
}

void RankedBarChart::setSeries(report::BarSeries series) {
    series_ = std::move(series);
    setTitle(QString::fromStdString(series_.title));
    refresh();
}

void RankedBarChart::setCategoryColors(std::function<QColor(int)> colorOf) {
    colorOf_ = std::move(colorOf);
    refresh();
}

void RankedBarChart::setLabelChars(int chars) {
    labelChars_ = std::max(8, chars);
    refresh();
}

void RankedBarChart::rebuild() {
    clearPlottables();
    clearItems();
    const auto& items = series_.items;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double maxValue = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        ticker->addTick(double(i + 1), elideFront(QString::fromStdString(items[i].label), labelChars_));
        maxValue = std::max(maxValue, items[i].value);
    }
    yAxis->setTicker(ticker);
    yAxis->setRange(0.4, double(items.size()) + 0.6);
    xAxis->setLabel(QString::fromStdString(series_.valueAxis));
    // Room on the right for the value labels.
    xAxis->setRange(0, maxValue > 0 ? maxValue * 1.32 : 1);

    // One QCPBars per category (a bars plottable has one brush); each holds only its own categories' keys.
    int categoriesUsed = 0;
    const int categories = std::max<int>(1, int(series_.categories.size()));
    for (int c = 0; c < categories; ++c) {
        QVector<double> keys, values;
        for (size_t i = 0; i < items.size(); ++i)
            if (items[i].category == c ||
                (c == 0 && (items[i].category < 0 || items[i].category >= categories))) {
                keys.append(double(i + 1));
                values.append(items[i].value);
            }
        if (keys.isEmpty())
            continue;
        ++categoriesUsed;
        auto* bars = new QCPBars(yAxis, xAxis);
        bars->setName(c < int(series_.categories.size())
                          ? QString::fromStdString(series_.categories[size_t(c)])
                          : QString());
        const QColor color = colorOf_(c);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130), 0.5));
        bars->setWidth(0.72);
        bars->setData(keys, values, true);
    }
    // Below the plot: inside, the legend covered the value labels of short series.
    setLegendBelow(categoriesUsed > 1);

    const QColor text = palette().color(QPalette::WindowText);
    for (size_t i = 0; i < items.size(); ++i) {
        auto* label = new QCPItemText(this);
        label->setClipToAxisRect(false);
        label->position->setAxes(xAxis, yAxis);
        label->position->setCoords(items[i].value, double(i + 1));
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(4, 0, 0, 0));
        label->setFont(chartFont(7));
        label->setColor(text);
        QString t = QString::fromStdString(report::fmt::number(std::round(items[i].value * 10) / 10));
        if (!items[i].detail.empty())
            t += QStringLiteral("  (") + QString::fromStdString(items[i].detail) + QLatin1Char(')');
        label->setText(t);
    }
}

LayerLatencyChart::LayerLatencyChart(QWidget* parent)
    : RankedBarChart(parent) {
    setCategoryColors(placementColor);
}

void LayerLatencyChart::setSession(const Session& s, size_t n) {
    setSeries(report::topLayerLatency(s.graph(), s.analysis(), s.cost(), n));
}

PaddingWasteChart::PaddingWasteChart(QWidget* parent)
    : RankedBarChart(parent) {
    // G4.2 (conv-like) vermillion, G4.1 (general) sky blue.
    setCategoryColors([](int c) { return categoryColor(c == 0 ? 5 : 4); });
}

void PaddingWasteChart::setSession(const Session& s, size_t n) {
    setSeries(report::paddingWastePerLayer(s.graph(), s.analysis(), n));
}

OpBreakdownChart::OpBreakdownChart(QWidget* parent)
    : RankedBarChart(parent) {
    setCategoryColors([](int) { return categoryColor(2); });
}

void OpBreakdownChart::setSession(const Session& s, size_t n) {
    setSeries(report::opTypeBreakdown(s.graph(), s.cost(), n));
}

} // namespace bpu::ui::charts
