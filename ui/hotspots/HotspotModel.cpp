// SPDX-License-Identifier: MIT
#include "HotspotModel.h"

#include "ui/style/Palette.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

namespace bpu::ui {

HotspotModel::HotspotModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void HotspotModel::setSnapshot(SnapshotPtr s) {
    const bool sameShape =
        snap_ && s && snap_->graph && s->graph && snap_->graph->nodes.size() == s->graph->nodes.size();
    if (sameShape) {
        snap_ = std::move(s);
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    snap_ = std::move(s);
    rows_.clear();
    rowOfNode_.clear();
    if (snap_ && snap_->graph) {
        rowOfNode_.assign(snap_->graph->nodes.size(), -1);
        for (NodeId id : snap_->graph->topoOrder) {
            rowOfNode_[id.value] = static_cast<int>(rows_.size());
            rows_.push_back(id);
        }
    }
    endResetModel();
}

int HotspotModel::rowOf(NodeId id) const {
    return id.valid() && id.value < rowOfNode_.size() ? rowOfNode_[id.value] : -1;
}

NodeId HotspotModel::nodeAt(int row) const {
    return row >= 0 && row < int(rows_.size()) ? rows_[row] : NodeId{};
}

int HotspotModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}
int HotspotModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HotspotModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* names[] = {"Node",  "Op",        "Latency (us)", "Share", "Delta (us)", "Placement",
                                  "Waste", "Intensity", "Bound",        "MACs",  "DDR bytes"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QVariant HotspotModel::data(const QModelIndex& index, int role) const {
    if (!snap_ || !index.isValid() || index.row() >= int(rows_.size()))
        return {};
    const NodeId id = rows_[index.row()];
    const Node& n = snap_->graph->node(id);
    const NodeAnalysis& a = snap_->analysis.nodes[id.value];
    const NodeCost& c = snap_->cost.nodes[id.value];
    // Computed on demand: the proxy calls data() N log N times per re-sort, for one column.
    auto waste = [&] {
        double w = 0;
        for (TensorId o : n.outputs)
            if (o.valid())
                w = std::max(w, snap_->analysis.tensors[o.value].padded.wasteRatio());
        return w;
    };
    auto delta = [&] {
        return id.value < snap_->baselineNodeUs.size() ? c.latencyUs - snap_->baselineNodeUs[id.value] : 0.0;
    };
    if (role == NodeIdRole)
        return QVariant::fromValue(id.value);
    if (role == SortRole) {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(n.name);
        case Op:
            return QString::fromStdString(n.opType);
        case Latency:
            return c.latencyUs;
        case Share:
            return c.share;
        case Delta:
            return delta();
        case Placement:
            return QString::fromLatin1(placementName(a.placement));
        case Waste:
            return waste();
        case Intensity:
            return a.intensity;
        case Bound:
            return QString::fromLatin1(boundName(a.bound));
        case Macs:
            return static_cast<qlonglong>(a.macs);
        case Bytes:
            return static_cast<qlonglong>(a.ddrBytes);
        }
    }
    if (role == Qt::DisplayRole) {
        const QLocale loc = QLocale::c();
        switch (index.column()) {
        case Name:
            return QString::fromStdString(n.name);
        case Op:
            return QString::fromStdString(n.opType);
        case Latency:
            return QString::number(c.latencyUs, 'f', 2);
        case Share:
            return QString::number(c.share * 100, 'f', 1) + QLatin1Char('%');
        case Delta:
            return std::abs(delta()) < 0.005 ? QString() : QString::number(delta(), 'f', 2);
        case Placement:
            return QString::fromLatin1(placementName(a.placement));
        case Waste:
            return waste() > 0 ? QString::number(waste() * 100, 'f', 0) + QLatin1Char('%') : QString();
        case Intensity:
            return a.macs ? QString::number(a.intensity, 'f', 1) : QString();
        case Bound:
            return QString::fromLatin1(boundName(a.bound));
        case Macs:
            return loc.toString(static_cast<qlonglong>(a.macs));
        case Bytes:
            return loc.toString(static_cast<qlonglong>(a.ddrBytes));
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Latency && index.column() != Placement &&
        index.column() != Bound)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == Placement && a.placement == bpu::Placement::CPU)
        return QBrush(style::cpu());
    if (role == Qt::ForegroundRole && index.column() == Delta && std::abs(delta()) >= 0.005)
        return QBrush(delta() > 0 ? style::worse() : style::better());
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(a.placementReason);
    return {};
}

} // namespace bpu::ui
