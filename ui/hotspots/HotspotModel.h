// SPDX-License-Identifier: MIT
#pragma once

#include "core/cost/Hotspots.h"
#include "ui/session/Snapshot.h"

#include <QAbstractTableModel>

namespace bpu::ui {

/// Every node of the current snapshot as a row (latency, share, placement, waste, intensity, bound, MACs,
/// bytes), and beside them the cost rows that belong to no single node: input conversion, quantize /
/// dequantize passes, CPU<->BPU transitions, the runtime overhead (core/cost/Hotspots.h's items), so the
/// table adds up to the total. Sorting/filtering is done by a QSortFilterProxyModel on top (SortRole gives
/// raw numbers); the model's own order is stable (nodes in topological order, then the cost rows).
class HotspotModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Op,
        Latency,
        Share,
        Delta,
        Placement,
        Waste,
        Intensity,
        Bound,
        Macs,
        Bytes,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NodeIdRole = Qt::UserRole + 2;

    explicit HotspotModel(QObject* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    /// Row of a node (model order), -1 if none.
    int rowOf(NodeId id) const;
    /// The node a row stands for, or the node to select for a cost row (invalid for the runtime overhead).
    NodeId nodeAt(int row) const;
    /// The row's item: a node (its numbers are the snapshot's NodeCost, not the item's), or a cost row
    /// (HotspotItem::isRow, its index into the estimate's rows).
    const HotspotItem& itemAt(int row) const { return rows_.at(size_t(row)); }
    /// The number SortRole gives for a node's row in a numeric column, without a QVariant (the sort proxy
    /// compares 10k rows per snapshot); false for text columns and the cost rows. Read from a per-column
    /// cache built on first use after each snapshot: a re-sort asks N log N times for N keys.
    bool numericSortKey(int row, int column, double& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    SnapshotPtr snap_;
    QVariant costRowData(const HotspotItem& item, int column, int role) const;
    /// A node's latency against the baseline, in us (0 where the baseline has no such node).
    /// Now minus the baseline per image, paired by name (NodeDeltas); 0 for a new node.
    double deltaUs(NodeId id) const;
    /// The baseline has no node of this name: no delta, "new".
    bool isNew(NodeId id) const;
    /// numericSortKey's definition, uncached.
    bool computeSortKey(int row, int column, double& key) const;
    /// Drops the sort-key cache: called when snap_ changes, before the views hear of it (a change in the
    /// number of rows drops it by itself, numericSortKey compares the sizes).
    void dropSortKeys() const { sortKeyColumn_ = -1; }

    std::vector<HotspotItem> rows_;
    std::vector<int> rowOfNode_;
    long nodeRows_ = 0; ///< rows_ starts with the graph's nodes, then the cost rows
    mutable std::vector<double> sortKeys_; ///< per row, NaN where the row has no numeric key
    mutable int sortKeyColumn_ = -1;       ///< the column sortKeys_ holds, -1: none
};

} // namespace bpu::ui
