// SPDX-License-Identifier: MIT
#include "ChartsPanel.h"

#include "ChartStyle.h"
#include "HotspotSeries.h"
#include "RankedBarChart.h"
#include "RooflineChart.h"
#include "core/analysis/AnalysisResult.h"
#include "core/report/ChartData.h"
#include "core/report/ReportFormat.h"
#include "ui/session/SelectionHub.h"

#include <QTabWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>

namespace bpu::ui {

namespace {

// Bars per chart in the dock: enough to see the head of the distribution at a dock's height.
constexpr size_t kTopLayers = 15;
constexpr size_t kOpTypes = 12;
// How close (pixels) a click must come to a roofline point to pick it.
constexpr double kPickRadius = 8;

/// Index of the bar row at widget position `pos`, -1 outside every row.
int barRowAt(const charts::RankedBarChart* chart, const QPointF& pos) {
    const auto& items = chart->series().items;
    const QRect rect = chart->axisRect()->rect();
    if (items.empty() || pos.y() < rect.top() || pos.y() > rect.bottom())
        return -1;
    const double key = chart->yAxis->pixelToCoord(pos.y());
    const int row = int(std::lround(key)) - 1;
    if (row < 0 || row >= int(items.size()) || std::fabs(key - double(row + 1)) > 0.5)
        return -1;
    return row;
}

QString barTip(const report::BarItem& b, const std::string& axis) {
    QString t = QStringLiteral("<b>%1</b><br>%2: %3")
                    .arg(QString::fromStdString(b.label).toHtmlEscaped(), QString::fromStdString(axis))
                    .arg(QString::fromStdString(report::fmt::number(std::round(b.value * 100) / 100)));
    if (!b.detail.empty())
        t += QStringLiteral(" (%1)").arg(QString::fromStdString(b.detail).toHtmlEscaped());
    return t;
}

} // namespace

ChartsPanel::ChartsPanel(SelectionHub* hub, QWidget* parent)
    : QWidget(parent)
    , hub_(hub)
    , tabs_(new QTabWidget(this))
    , latency_(new charts::LayerLatencyChart(this))
    , roofline_(new charts::RooflineChart(this))
    , padding_(new charts::PaddingWasteChart(this))
    , ops_(new charts::OpBreakdownChart(this)) {
    // The tab names say what each chart is: no title row inside the plot, the dock is short.
    roofline_->setTitle(QString());
    // A compact legend: at a dock's height the report's legend would cover the points near the roof.
    roofline_->legend->setFont(charts::chartFont(7));
    roofline_->legend->setIconSize(14, 8);
    roofline_->legend->setRowSpacing(0);
    tabs_->addTab(latency_, tr("Top layers"));
    tabs_->addTab(roofline_, tr("Roofline"));
    tabs_->addTab(padding_, tr("Padding waste"));
    tabs_->addTab(ops_, tr("Op types"));
    tabs_->setTabToolTip(Latency,
                         tr("The layers and passes (quantize/dequantize, transitions, runtime overhead) "
                            "with the largest estimated latency, coloured by placement"));
    tabs_->setTabToolTip(Roofline,
                         tr("Intensity vs achieved throughput of every BPU layer, with the profile's "
                            "roof and ridge"));
    tabs_->setTabToolTip(Padding, tr("The layers whose outputs waste most bytes to alignment padding (G4)"));
    tabs_->setTabToolTip(Ops, tr("Estimated latency summed per op type"));
    tabs_->setDocumentMode(true);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(tabs_);
    for (int c = 0; c < ChartCount; ++c) {
        charts::ChartBase* plot = chart(Chart(c));
        plot->setMinimumSize(240, 160);
        plot->setMouseTracking(true);
        connect(plot, &QCustomPlot::mousePress, this,
                [this, c](QMouseEvent* e) { clicked(Chart(c), e->position()); });
        connect(plot, &QCustomPlot::mouseMove, this,
                [this, c](QMouseEvent* e) { hover(Chart(c), e->position().toPoint()); });
    }
    connect(tabs_, &QTabWidget::currentChanged, this, [this] { refreshVisible(); });
    connect(hub_, &SelectionHub::changed, this, [this] {
        for (int c = 0; c < ChartCount; ++c)
            if (isCurrent(Chart(c)))
                markSelection(Chart(c));
    });
}

charts::ChartBase* ChartsPanel::chart(Chart c) const {
    switch (c) {
    case Latency:
        return latency_;
    case Roofline:
        return roofline_;
    case Padding:
        return padding_;
    case Ops:
        return ops_;
    case ChartCount:
        break;
    }
    return nullptr;
}

void ChartsPanel::setSnapshot(SnapshotPtr s) {
    snap_ = std::move(s);
    refreshVisible();
}

void ChartsPanel::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    refreshVisible();
}

void ChartsPanel::refreshVisible() {
    if (!snap_ || !isVisible())
        return; // hidden dock: catch up when shown
    const Chart c = Chart(tabs_->currentIndex());
    if (c >= 0 && c < ChartCount && shown_[c] != snap_)
        refresh(c);
}

void ChartsPanel::refresh(Chart c) {
    const Snapshot& s = *snap_;
    if (!s.graph || !s.target)
        return;
    marker_[c] = nullptr; // rebuilding clears the chart's items
    QString empty;
    if (c == Roofline) {
        roofline_->setData(report::roofline(*s.graph, *s.analysis, s.cost, *s.target));
        if (roofline_->data().points.empty())
            empty = tr("No BPU layer with MACs to place on the roofline");
    } else {
        report::BarSeries series;
        charts::RankedBarChart* bars = nullptr;
        if (c == Latency) {
            series = charts::topHotspotSeries(*s.graph, *s.analysis, s.cost, kTopLayers);
            bars = latency_;
            empty = tr("No layer with an estimated latency");
        } else if (c == Padding) {
            series = report::paddingWastePerLayer(*s.graph, *s.analysis, kTopLayers);
            bars = padding_;
            empty = tr("No layer wastes bytes to alignment padding");
        } else {
            series = report::opTypeBreakdown(*s.graph, s.cost, kOpTypes);
            bars = ops_;
            empty = tr("No op with an estimated latency");
        }
        series.title.clear(); // the tab names the chart
        bars->setSeries(std::move(series));
        if (!bars->series().items.empty())
            empty.clear();
    }
    charts::ChartBase* plot = chart(c);
    if (!empty.isEmpty()) {
        auto* note = new QCPItemText(plot);
        note->position->setType(QCPItemPosition::ptAxisRectRatio);
        note->position->setCoords(0.5, 0.5);
        note->setText(empty);
        note->setFont(charts::chartFont(9, false, true));
        note->setColor(palette().color(QPalette::WindowText));
    }
    shown_[c] = snap_;
    markSelection(c);
}

void ChartsPanel::markSelection(Chart c) {
    charts::ChartBase* plot = chart(c);
    if (QCPAbstractItem* old = marker_[c])
        plot->removeItem(old);
    marker_[c] = nullptr;
    const NodeId id = hub_->current();
    if (id.valid()) {
        QColor mark = palette().color(QPalette::Highlight);
        if (c == Roofline) {
            for (const auto& p : roofline_->data().points)
                if (p.node == id) {
                    auto* ring = new QCPItemTracer(plot);
                    ring->setStyle(QCPItemTracer::tsCircle);
                    ring->setSize(15);
                    ring->setPen(QPen(mark, 2.5));
                    ring->position->setCoords(p.intensity, p.macsPerSecond / 1e9);
                    marker_[c] = ring;
                    break;
                }
        } else if (c != Ops) {
            const auto& items = static_cast<charts::RankedBarChart*>(plot)->series().items;
            for (size_t i = 0; i < items.size(); ++i)
                if (items[i].node == id) {
                    auto* band = new QCPItemRect(plot);
                    band->topLeft->setCoords(plot->xAxis->range().lower, double(i) + 0.5);
                    band->bottomRight->setCoords(plot->xAxis->range().upper, double(i) + 1.5);
                    mark.setAlphaF(0.25);
                    band->setBrush(mark);
                    band->setPen(Qt::NoPen);
                    marker_[c] = band;
                    break;
                }
        }
    }
    plot->replot(QCustomPlot::rpQueuedReplot);
}

NodeId ChartsPanel::nodeAt(Chart c, const QPointF& pos) const {
    if (c == Roofline) {
        NodeId best;
        double bestDist = kPickRadius;
        for (const auto& p : roofline_->data().points) {
            const double dx = roofline_->xAxis->coordToPixel(p.intensity) - pos.x();
            const double dy = roofline_->yAxis->coordToPixel(p.macsPerSecond / 1e9) - pos.y();
            const double d = std::hypot(dx, dy);
            if (d <= bestDist) {
                bestDist = d;
                best = p.node;
            }
        }
        return best;
    }
    if (c == Latency || c == Padding) {
        const auto* bars = static_cast<const charts::RankedBarChart*>(chart(c));
        const int row = barRowAt(bars, pos);
        return row >= 0 ? bars->series().items[size_t(row)].node : NodeId{};
    }
    return {};
}

void ChartsPanel::clicked(Chart c, const QPointF& pos) {
    const NodeId id = nodeAt(c, pos);
    if (id.valid())
        hub_->select(id, this); // the marks follow through SelectionHub::changed
}

void ChartsPanel::hover(Chart c, const QPoint& pos) {
    charts::ChartBase* plot = chart(c);
    QString tip;
    if (c == Roofline) {
        const NodeId id = nodeAt(c, pos);
        for (const auto& p : roofline_->data().points)
            if (p.node == id && id.valid()) {
                tip = tr("<b>%1</b><br>%2 MACs/B, %3 GMAC/s, %4 us (%5-bound)")
                          .arg(QString::fromStdString(p.label).toHtmlEscaped())
                          .arg(p.intensity, 0, 'f', 1)
                          .arg(p.macsPerSecond / 1e9, 0, 'f', 1)
                          .arg(p.latencyUs, 0, 'f', 1)
                          .arg(QString::fromLatin1(p.bound == Bound::Compute ? "compute" : "memory"));
                break;
            }
    } else {
        const auto* bars = static_cast<const charts::RankedBarChart*>(plot);
        const int row = barRowAt(bars, pos);
        if (row >= 0)
            tip = barTip(bars->series().items[size_t(row)], bars->series().valueAxis);
    }
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(plot->mapToGlobal(pos), tip, plot);
    plot->setCursor(nodeAt(c, pos).valid() ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

} // namespace bpu::ui
