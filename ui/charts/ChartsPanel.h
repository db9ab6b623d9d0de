// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QWidget>
#include <map>

class QCPAbstractItem;
class QTabWidget;

namespace bpu::ui {

class SelectionHub;

namespace charts {
class ChartBase;
class LayerLatencyChart;
class OpBreakdownChart;
class PaddingWasteChart;
class RooflineChart;
} // namespace charts

/// The charts dock: top layers by latency, the roofline with the profile's ridge, padding waste per layer and
/// latency per op type, drawn by the report's chart classes from the report's chart data (core/report
/// ChartData) of the current snapshot, so they follow every edit. Only the visible chart is rebuilt; the
/// others catch up when shown. Clicking a bar or a roofline point selects its node; the selected node is
/// marked on every chart.
class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    enum Chart { Latency, Roofline, Padding, Ops, ChartCount };

    ChartsPanel(SelectionHub* hub, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);

    QTabWidget* tabs() const { return tabs_; }
    charts::ChartBase* chart(Chart c) const;
    charts::LayerLatencyChart* latencyChart() const { return latency_; }
    charts::RooflineChart* rooflineChart() const { return roofline_; }
    charts::PaddingWasteChart* paddingChart() const { return padding_; }
    charts::OpBreakdownChart* opsChart() const { return ops_; }
    /// The node drawn at `pos` (widget coordinates of chart `c`): a bar's row, or a roofline point within a
    /// few pixels; invalid when there is none (op-type bars stand for no single node).
    NodeId nodeAt(Chart c, const QPointF& pos) const;
    /// True when chart `c` shows the current snapshot (false until its tab is first shown).
    bool isCurrent(Chart c) const { return shown_[c] == snap_ && snap_; }

protected:
    void showEvent(QShowEvent* e) override;

private:
    void refreshVisible();
    void refresh(Chart c);
    void markSelection(Chart c);
    void clicked(Chart c, const QPointF& pos);
    void hover(Chart c, const QPoint& pos);

    SelectionHub* hub_;
    SnapshotPtr snap_;
    SnapshotPtr shown_[ChartCount];
    QTabWidget* tabs_;
    charts::LayerLatencyChart* latency_;
    charts::RooflineChart* roofline_;
    charts::PaddingWasteChart* padding_;
    charts::OpBreakdownChart* ops_;
    std::map<Chart, QCPAbstractItem*> marker_; ///< the selection mark per chart (owned by the chart)
};

} // namespace bpu::ui
