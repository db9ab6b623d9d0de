// SPDX-License-Identifier: MIT
#include "HotspotSortProxy.h"

#include "HotspotModel.h"

namespace bpu::ui {

HotspotSortProxy::HotspotSortProxy(HotspotModel* source, QObject* parent)
    : QSortFilterProxyModel(parent)
    , source_(source) {
    setSourceModel(source);
    setSortRole(HotspotModel::SortRole);
}

bool HotspotSortProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    double a = 0, b = 0;
    if (source_->numericSortKey(left.row(), left.column(), a) &&
        source_->numericSortKey(right.row(), right.column(), b))
        return a < b;
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace bpu::ui
