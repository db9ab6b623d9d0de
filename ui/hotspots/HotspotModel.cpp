// SPDX-License-Identifier: MIT
#include "HotspotModel.h"

#include "ui/style/Palette.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

#include <algorithm>

namespace bpu::ui {

HotspotModel::HotspotModel(QObject* parent)
    : QAbstractTableModel(parent) {}

namespace {

/// The table's rows for `s`: every node in topological order (a node of no time stays findable), then the
/// cost rows core's hotspot list keeps (those with time), in the estimate's order.
std::vector<HotspotItem> tableRows(const Snapshot& s) {
    std::vector<HotspotItem> out;
    out.reserve(s.graph->nodes.size() + s.cost.rows.size());
    const double total = s.cost.totalUs > 0 ? s.cost.totalUs : 1.0;
    for (NodeId id : s.graph->topoOrder)
        out.push_back({id, -1, s.cost.nodes[id.value].latencyUs, s.cost.nodes[id.value].latencyUs / total});
    std::vector<HotspotItem> rows;
    for (const HotspotItem& item : hotspots(*s.graph, s.cost))
        if (item.isRow())
            rows.push_back(item);
    std::sort(rows.begin(), rows.end(),
              [](const HotspotItem& a, const HotspotItem& b) { return a.row < b.row; });
    out.insert(out.end(), rows.begin(), rows.end());
    return out;
}

/// Same rows in the same order (only their numbers may differ): a refresh, not a reset.
bool sameRows(const std::vector<HotspotItem>& a, const std::vector<HotspotItem>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const HotspotItem& x, const HotspotItem& y) {
        return x.node == y.node && x.row == y.row;
    });
}

} // namespace

void HotspotModel::setSnapshot(SnapshotPtr s) {
    std::vector<HotspotItem> rows = s && s->graph ? tableRows(*s) : std::vector<HotspotItem>{};
    if (snap_ && s && !rows.empty() && sameRows(rows, rows_)) {
        snap_ = std::move(s);
        rows_ = std::move(rows);
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    snap_ = std::move(s);
    rows_ = std::move(rows);
    rowOfNode_.clear();
    if (snap_ && snap_->graph) {
        rowOfNode_.assign(snap_->graph->nodes.size(), -1);
        for (size_t r = 0; r < rows_.size(); ++r)
            if (!rows_[r].isRow())
                rowOfNode_[rows_[r].node.value] = static_cast<int>(r);
    }
    endResetModel();
}

int HotspotModel::rowOf(NodeId id) const {
    return id.valid() && id.value < rowOfNode_.size() ? rowOfNode_[id.value] : -1;
}

NodeId HotspotModel::nodeAt(int row) const {
    return row >= 0 && row < int(rows_.size()) ? rows_[size_t(row)].node : NodeId{};
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
    const HotspotItem& item = rows_[size_t(index.row())];
    if (item.isRow())
        return costRowData(item, index.column(), role);
    const NodeId id = item.node;
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

QVariant HotspotModel::costRowData(const HotspotItem& item, int column, int role) const {
    const CostRow& r = snap_->cost.rows[size_t(item.row)];
    // The same pass in the baseline (same kind, same tensor): its delta. A pass the baseline lacks (an edit
    // made it) counts from zero.
    auto delta = [&] {
        double before = 0;
        for (const CostRow& b : snap_->baseline.rows)
            if (b.kind == r.kind && b.label == r.label)
                before = b.us;
        return r.us - before;
    };
    const QString where = r.onBpu ? QStringLiteral("BPU") : QStringLiteral("CPU");
    if (role == NodeIdRole)
        return r.node.valid() ? QVariant::fromValue(r.node.value) : QVariant();
    if (role == SortRole || role == Qt::DisplayRole) {
        const bool display = role == Qt::DisplayRole;
        switch (column) {
        case Name:
            return QString::fromStdString(hotspotLabel(*snap_->graph, snap_->cost, item));
        case Op:
            return QString::fromStdString(hotspotKind(*snap_->graph, snap_->cost, item));
        case Latency:
            return display ? QVariant(QString::number(r.us, 'f', 2)) : QVariant(r.us);
        case Share:
            return display ? QVariant(QString::number(item.share * 100, 'f', 1) + QLatin1Char('%'))
                           : QVariant(item.share);
        case Delta:
            if (!display)
                return delta();
            return std::abs(delta()) < 0.005 ? QString() : QString::number(delta(), 'f', 2);
        case Placement:
            return where;
        case Waste:
        case Intensity:
            return display ? QVariant(QString()) : QVariant(0.0); // no tensor or MACs of its own
        case Macs:
        case Bytes:
            return display ? QVariant(QString()) : QVariant(qlonglong(0));
        default:
            return QString(); // the bound: none
        }
    }
    if (role == Qt::TextAlignmentRole && column >= Latency && column != Placement && column != Bound)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && column == Name) {
        QFont f;
        f.setItalic(true); // not a layer of the model: a pass, a transition or the runtime's overhead
        return f;
    }
    if (role == Qt::ForegroundRole && column == Placement && !r.onBpu)
        return QBrush(style::cpu());
    if (role == Qt::ForegroundRole && column == Delta && std::abs(delta()) >= 0.005)
        return QBrush(delta() > 0 ? style::worse() : style::better());
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(r.formula);
    return {};
}

} // namespace bpu::ui
