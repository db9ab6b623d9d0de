// SPDX-License-Identifier: MIT
#include "RooflineChart.h"

#include "ChartStyle.h"
#include "core/analysis/AnalysisResult.h"
#include "core/edit/Session.h"
#include "core/report/ReportFormat.h"

#include <algorithm>
#include <cmath>

namespace bpu::ui::charts {

namespace {

constexpr double kGiga = 1e9; // the y axis is in GMAC/s

QSharedPointer<QCPAxisTickerLog> logTicker() {
    auto t = QSharedPointer<QCPAxisTickerLog>::create();
    t->setLogBase(10);
    t->setSubTickCount(8);
    return t;
}

} // namespace

RooflineChart::RooflineChart(QWidget* parent)
    : ChartBase(parent) {
    xAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    xAxis->setTicker(logTicker());
    yAxis->setTicker(logTicker());
    xAxis->setNumberFormat(QStringLiteral("eb"));
    yAxis->setNumberFormat(QStringLiteral("eb"));
    xAxis->setNumberPrecision(0);
    yAxis->setNumberPrecision(0);
    xAxis->setLabel(tr("intensity (padded MACs per DDR byte)"));
    yAxis->setLabel(tr("achieved GMAC/s"));
    setTitle(tr("Roofline"));
    // Inside the plot, any corner of the legend hides either points or the roof line.
    setLegendBelow(true, 2);
}

void RooflineChart::setData(report::RooflineData data) {
    data_ = std::move(data);
    refresh();
}

void RooflineChart::setSession(const Session& s) {
    setData(report::roofline(s.graph(), s.analysis(), s.cost(), s.target()));
}

void RooflineChart::rebuild() {
    clearPlottables();
    clearItems();
    const report::RooflineData& d = data_;
    if (d.ddrBytesPerSecond <= 0 || d.roofMacsPerSecond <= 0)
        return;
    double xmin = d.ridgeIntensity, xmax = d.ridgeIntensity;
    double ymin = d.roofMacsPerSecond, ymax = d.peakMacsPerSecond;
    for (const auto& r : d.otherRoofs)
        ymin = std::min(ymin, r.macsPerSecond);
    for (const auto& p : d.points) {
        xmin = std::min(xmin, p.intensity);
        xmax = std::max(xmax, p.intensity);
        ymin = std::min(ymin, p.macsPerSecond);
        ymax = std::max(ymax, p.macsPerSecond);
    }
    // Whole decades around everything, so the log ticks land on the edges, with room for a marker's
    // radius: a point exactly on a decade (intensity 1) must not sit half outside the axis.
    constexpr double kRoom = 1.25;
    const double x0 = std::pow(10, std::floor(std::log10(std::max(xmin / kRoom, 1e-3))));
    const double x1 = std::pow(10, std::ceil(std::log10(std::max(xmax * kRoom, 1e-2))));
    const double y0 = std::pow(10, std::floor(std::log10(std::max(ymin / kRoom / kGiga, 1e-3))));
    const double y1 = std::pow(10, std::ceil(std::log10(ymax * kRoom / kGiga)));
    xAxis->setRange(x0, x1);
    yAxis->setRange(y0, y1);

    // The roof is straight in log-log on both sides of the ridge, so three points draw it exactly.
    QVector<double> rx{x0}, ry{d.roofAt(x0) / kGiga};
    if (d.ridgeIntensity > x0 && d.ridgeIntensity < x1) {
        rx.append(d.ridgeIntensity);
        ry.append(d.roofMacsPerSecond / kGiga);
    }
    rx.append(x1);
    ry.append(d.roofAt(x1) / kGiga);
    const QColor text = palette().color(QPalette::WindowText);
    auto* roof = addGraph(xAxis, yAxis);
    roof->setName(
        tr("roof (DDR, then %1% of peak)")
            .arg(d.peakMacsPerSecond > 0 ? qRound(100 * d.roofMacsPerSecond / d.peakMacsPerSecond) : 0));
    roof->setPen(QPen(text, 1.6));
    roof->setData(rx, ry, true);

    auto* peak = addGraph(xAxis, yAxis);
    peak->setName(tr("peak %1 GMAC/s").arg(d.peakMacsPerSecond / kGiga, 0, 'f', 0));
    QColor grey = text;
    grey.setAlphaF(0.5);
    peak->setPen(QPen(grey, 1, Qt::DotLine));
    peak->setData(QVector<double>{x0, x1},
                  QVector<double>{d.peakMacsPerSecond / kGiga, d.peakMacsPerSecond / kGiga}, true);
    // Issue 63: the flat roof of every other rate kind the points are priced at (a depthwise conv, a MatMul
    // of two activations, int16): each point sits under its own, from its ridge on.
    for (const auto& other : d.otherRoofs) {
        auto* r = addGraph(xAxis, yAxis);
        r->setName(
            tr("roof: %1 (%2% of peak)")
                .arg(QString::fromStdString(other.name))
                .arg(d.peakMacsPerSecond > 0 ? qRound(100 * other.macsPerSecond / d.peakMacsPerSecond) : 0));
        r->setPen(QPen(text, 1, Qt::DashLine));
        const double ridgeX = std::max(x0, other.macsPerSecond / d.ddrBytesPerSecond);
        r->setData(QVector<double>{ridgeX, x1},
                   QVector<double>{other.macsPerSecond / kGiga, other.macsPerSecond / kGiga}, true);
    }

    auto* ridge = new QCPItemStraightLine(this);
    ridge->point1->setCoords(d.ridgeIntensity, y0);
    ridge->point2->setCoords(d.ridgeIntensity, y1);
    ridge->setPen(QPen(grey, 1, Qt::DashLine));
    auto* ridgeLabel = new QCPItemText(this);
    ridgeLabel->position->setCoords(d.ridgeIntensity, y1);
    ridgeLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    ridgeLabel->setPadding(QMargins(4, 2, 0, 0));
    ridgeLabel->setFont(chartFont(7));
    ridgeLabel->setColor(text);
    ridgeLabel->setText(tr("ridge %1 MACs/B").arg(qRound(d.ridgeIntensity)));

    for (Bound b : {Bound::Compute, Bound::Memory}) {
        QVector<double> px, py;
        for (const auto& p : d.points)
            if (p.bound == b) {
                px.append(p.intensity);
                py.append(p.macsPerSecond / kGiga);
            }
        auto* g = addGraph(xAxis, yAxis);
        const QColor color = boundColor(b);
        g->setName(b == Bound::Compute ? tr("compute-bound (%1)").arg(px.size())
                                       : tr("memory-bound (%1)").arg(px.size()));
        g->setLineStyle(QCPGraph::lsNone);
        g->setScatterStyle(
            QCPScatterStyle(b == Bound::Compute ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssSquare,
                            color.darker(120), color, 5));
        g->setPen(QPen(color));
        // Unsorted on purpose: scatter points need no key order, and sorting would merge nothing.
        g->setData(px, py);
    }
}

} // namespace bpu::ui::charts
