// SPDX-License-Identifier: MIT
#pragma once

#include <QSortFilterProxyModel>

namespace bpu::ui {

class HotspotModel;

/// The hotspot table's sort and filter. Every snapshot re-sorts every row (10k and more on a big model):
/// compared through QVariant, the sort alone took about a third of a snapshot's panel update at 10k nodes.
/// Node rows in a numeric column compare the model's numbers directly (HotspotModel::numericSortKey), the
/// same values SortRole gives; anything else (names, the cost rows) goes through SortRole as before.
class HotspotSortProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit HotspotSortProxy(HotspotModel* source, QObject* parent = nullptr);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    const HotspotModel* source_;
};

} // namespace bpu::ui
