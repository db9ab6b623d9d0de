// SPDX-License-Identifier: MIT
#include "HotspotModel.h"

#include "core/analysis/AnalysisResult.h"
#include "ui/style/Palette.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

namespace bpu::ui {

HotspotModel::HotspotModel(QObject* parent)
    : QAbstractTableModel(parent) {}

namespace {

/// The graph's node rows stay as they are: the same graph object, or an edit that kept every node in place
/// (a setting, a shape).
bool sameNodes(const Graph* a, const Graph* b) {
    return a == b || (a && b && a->nodes.size() == b->nodes.size() && a->topoOrder == b->topoOrder);
}

/// The cost rows core's hotspot list keeps (those with time, as hotspots() filters them), in the estimate's
/// order.
std::vector<HotspotItem> costRows(const CostEstimate& c) {
    std::vector<HotspotItem> out;
    const double total = c.totalUs > 0 ? c.totalUs : 1.0;
    for (size_t i = 0; i < c.rows.size(); ++i)
        if (c.rows[i].us > 0)
            out.push_back({c.rows[i].node, static_cast<int>(i), c.rows[i].us, c.rows[i].us / total});
    return out;
}

} // namespace

void HotspotModel::setSnapshot(SnapshotPtr s) {
    const Graph* graph = s ? s->graph.get() : nullptr;
    std::vector<HotspotItem> tail = graph ? costRows(s->cost) : std::vector<HotspotItem>{};
    const bool nodesKept = snap_ && graph && sameNodes(snap_->graph.get(), graph);
    // Same nodes (only their numbers may differ): a refresh, not a reset, so the view keeps its scroll
    // position and selection and the sort proxy re-sorts in place instead of re-laying every row. Only the
    // small cost-row tail (transitions, passes) can differ in count: it alone is removed and inserted again.
    if (nodesKept && !rows_.empty()) {
        const bool sameTail = std::equal(
            tail.begin(), tail.end(), rows_.begin() + nodeRows_, rows_.end(),
            [](const HotspotItem& x, const HotspotItem& y) { return x.node == y.node && x.row == y.row; });
        if (!sameTail && rows_.size() > size_t(nodeRows_)) {
            // The old tail rows index the old snapshot's cost rows: removed while it is still the one read.
            beginRemoveRows({}, int(nodeRows_), int(rows_.size()) - 1);
            rows_.resize(size_t(nodeRows_));
            endRemoveRows();
        }
        const bool batchChanged = snap_->cost.batch != s->cost.batch;
        snap_ = std::move(s);
        dropSortKeys();
        if (batchChanged)
            emit headerDataChanged(Qt::Horizontal, Latency, Delta);
        if (sameTail) {
            std::copy(tail.begin(), tail.end(), rows_.begin() + nodeRows_);
        } else if (!tail.empty()) {
            beginInsertRows({}, int(nodeRows_), int(nodeRows_ + long(tail.size())) - 1);
            rows_.insert(rows_.end(), tail.begin(), tail.end());
            endInsertRows();
        }
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    if (!nodesKept) {
        // Every node in topological order (a node of no time stays findable); their numbers are read from
        // the snapshot, so these rows change only with the graph.
        rows_.clear();
        rowOfNode_.clear();
        if (graph) {
            rows_.reserve(graph->nodes.size() + tail.size());
            rowOfNode_.assign(graph->nodes.size(), -1);
            for (NodeId id : graph->topoOrder) {
                rowOfNode_[id.value] = static_cast<int>(rows_.size());
                rows_.push_back({id, -1, 0, 0});
            }
        }
        nodeRows_ = static_cast<long>(rows_.size());
    }
    rows_.resize(size_t(nodeRows_));
    rows_.insert(rows_.end(), tail.begin(), tail.end());
    snap_ = std::move(s);
    dropSortKeys();
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
    if (o != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    // A node's time is for one inference, which serves `batch` images after a batch edit, while the status
    // bar gives the latency per image: the header says which, so the two are not read as the same figure.
    const int batch = snap_ ? snap_->cost.batch : 1;
    const bool perTime = section == Latency || section == Delta;
    if (role == Qt::ToolTipRole && perTime) {
        const QString images = batch == 1 ? tr("one image") : tr("%1 images").arg(batch);
        return section == Latency
                   ? tr("Time of this node in one inference (%1 per inference); the status bar "
                        "gives the model's latency per image.")
                         .arg(images)
                   : tr("This node's time per image now minus in the baseline, paired by node name "
                        "(\"new\": the baseline has no node of this name; now %1 per inference).")
                         .arg(images);
    }
    if (role != Qt::DisplayRole)
        return {};
    // The delta is per image (NodeDeltas): at another batch than the baseline's, per inference would make
    // every node look slower.
    if (section == Delta && snap_ && snap_->deltas && snap_->deltas->perImage())
        return tr("Delta (us/image)");
    if (perTime && batch > 1 && section == Latency)
        return tr("Latency (us, batch %1)").arg(batch);
    static const char* names[] = {"Node",  "Op",        "Latency (us)", "Share", "Delta (us)", "Placement",
                                  "Waste", "Intensity", "Bound",        "MACs",  "DDR bytes"};
    return tr(names[section]);
}

double HotspotModel::deltaUs(NodeId id) const {
    return snap_->deltas ? snap_->deltas->deltaUs(id) : 0.0;
}

bool HotspotModel::isNew(NodeId id) const {
    return snap_->deltas && snap_->deltas->kind(id) == NodeChangeKind::New;
}

bool HotspotModel::numericSortKey(int row, int column, double& key) const {
    if (row < 0 || row >= int(rows_.size()))
        return false;
    if (sortKeyColumn_ != column || sortKeys_.size() != rows_.size()) {
        sortKeys_.assign(rows_.size(), std::numeric_limits<double>::quiet_NaN());
        for (size_t r = 0; r < rows_.size(); ++r)
            if (double k = 0; computeSortKey(int(r), column, k))
                sortKeys_[r] = k;
        sortKeyColumn_ = column;
    }
    key = sortKeys_[size_t(row)];
    return !std::isnan(key);
}

bool HotspotModel::computeSortKey(int row, int column, double& key) const {
    if (!snap_ || row < 0 || row >= int(rows_.size()) || rows_[size_t(row)].isRow())
        return false;
    const NodeId id = rows_[size_t(row)].node;
    const NodeAnalysis& a = snap_->analysis->nodes[id.value];
    const NodeCost& c = snap_->cost.nodes[id.value];
    switch (column) {
    case Latency:
        key = c.latencyUs;
        return true;
    case Share:
        key = c.share;
        return true;
    case Delta:
        key = deltaUs(id);
        return true;
    case Intensity:
        key = a.intensity;
        return true;
    case Macs:
        key = double(a.macs);
        return true;
    case Bytes:
        key = double(a.ddrBytes);
        return true;
    default:
        return false; // names, op, placement, bound: text; waste: computed per output (SortRole)
    }
}

QVariant HotspotModel::data(const QModelIndex& index, int role) const {
    if (!snap_ || !index.isValid() || index.row() >= int(rows_.size()))
        return {};
    const HotspotItem& item = rows_[size_t(index.row())];
    if (item.isRow())
        return costRowData(item, index.column(), role);
    const NodeId id = item.node;
    const Node& n = snap_->graph->node(id);
    const NodeAnalysis& a = snap_->analysis->nodes[id.value];
    const NodeCost& c = snap_->cost.nodes[id.value];
    // Computed on demand: the proxy calls data() N log N times per re-sort, for one column.
    auto waste = [&] {
        double w = 0;
        for (TensorId o : n.outputs)
            if (o.valid())
                w = std::max(w, snap_->analysis->tensors[o.value].padded.wasteRatio());
        return w;
    };
    auto delta = [&] {
        return deltaUs(id);
    };
    // A fused group's head carries the group's layer (CostModel): its row names the ops it runs; the
    // other members say which group they are in.
    auto opText = [&] {
        const FusedGroup* grp = snap_->analysis->group(a.fusionGroup);
        if (!grp)
            return QString::fromStdString(n.opType);
        if (grp->nodes.front() == id)
            return QString::fromStdString(grp->pattern);
        return QStringLiteral("%1 (in group #%2)").arg(QString::fromStdString(n.opType)).arg(grp->id.value);
    };
    if (role == NodeIdRole)
        return QVariant::fromValue(id.value);
    if (role == SortRole) {
        // The numeric columns: the same numbers the sort proxy compares (numericSortKey), one definition;
        // uncached, so a caller reading several columns row by row never rebuilds the proxy's column cache.
        if (double key = 0; computeSortKey(index.row(), index.column(), key))
            return key;
        switch (index.column()) {
        case Name:
            return QString::fromStdString(n.name);
        case Op:
            return opText();
        case Placement:
            return QString::fromLatin1(placementName(a.placement));
        case Waste:
            return waste();
        case Bound:
            return QString::fromLatin1(boundName(a.bound));
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        const QLocale loc = QLocale::c();
        switch (index.column()) {
        case Name:
            return QString::fromStdString(n.name);
        case Op:
            return opText();
        case Latency:
            return QString::number(c.latencyUs, 'f', 2);
        case Share:
            return QString::number(c.share * 100, 'f', 1) + QLatin1Char('%');
        case Delta:
            if (isNew(id))
                return tr("new");
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
    if (role == Qt::ForegroundRole && index.column() == Delta && isNew(id))
        return QBrush(style::added());
    if (role == Qt::ForegroundRole && index.column() == Delta && std::abs(delta()) >= 0.005)
        return QBrush(delta() > 0 ? style::worse() : style::better());
    if (role == Qt::ToolTipRole && index.column() == Op) {
        // The group's row lists the nodes whose time it carries.
        if (const FusedGroup* grp = snap_->analysis->group(a.fusionGroup)) {
            QStringList names;
            for (NodeId m : grp->nodes)
                names << QString::fromStdString(snap_->graph->node(m).name);
            return tr("Fused group #%1, one BPU layer whose time is on its head: %2")
                .arg(grp->id.value)
                .arg(names.join(QStringLiteral(", ")));
        }
    }
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(a.placementReason.str());
    return {};
}

QVariant HotspotModel::costRowData(const HotspotItem& item, int column, int role) const {
    const CostRow& r = snap_->cost.rows[size_t(item.row)];
    // The same pass in the baseline (same kind, same tensor): its delta. A pass the baseline lacks (an edit
    // made it) counts from zero.
    auto delta = [&] {
        const size_t i = size_t(item.row);
        return r.us - (i < snap_->baselineRowUs.size() ? snap_->baselineRowUs[i] : 0.0);
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
