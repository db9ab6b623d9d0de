// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QAbstractTableModel>

namespace bpu::ui {

/// Every node of the current snapshot as a row: latency, share, placement, waste, intensity, bound, MACs,
/// bytes. Sorting/filtering is done by a QSortFilterProxyModel on top (SortRole gives raw numbers).
class HotspotModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Op, Latency, Share, Delta, Placement, Waste, Intensity, Bound, Macs, Bytes, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int NodeIdRole = Qt::UserRole + 2;

    explicit HotspotModel(QObject* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    /// Row of a node (model order), -1 if none.
    int rowOf(NodeId id) const;
    NodeId nodeAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    SnapshotPtr snap_;
    std::vector<NodeId> rows_;
    std::vector<int> rowOfNode_;
};

} // namespace bpu::ui
