// SPDX-License-Identifier: MIT
#pragma once

#include "HotspotModel.h"

#include <QWidget>

class QTableView;
class QLineEdit;
class QSortFilterProxyModel;

namespace bpu::ui {

class SelectionHub;

/// Sortable, filterable table of every node; a click selects (and the graph centres) the node.
class HotspotPanel : public QWidget {
    Q_OBJECT
public:
    HotspotPanel(SelectionHub* hub, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    /// Clears the filter and the selected row (a new model).
    void reset();
    HotspotModel* model() const { return model_; }
    QLineEdit* filter() const { return filter_; }
    QTableView* view() const { return view_; }
    QSortFilterProxyModel* proxy() const { return proxy_; }

private:
    void follow(NodeId id, QObject* sender);

    SelectionHub* hub_;
    HotspotModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* view_;
    QLineEdit* filter_;
    bool following_ = false; ///< the selection is being set from the hub
};

} // namespace bpu::ui
