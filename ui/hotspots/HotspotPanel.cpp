// SPDX-License-Identifier: MIT
#include "HotspotPanel.h"

#include "HotspotSortProxy.h"
#include "ui/session/SelectionHub.h"

#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace bpu::ui {

HotspotPanel::HotspotPanel(SelectionHub* hub, QWidget* parent)
    : QWidget(parent)
    , hub_(hub)
    , model_(new HotspotModel(this))
    , proxy_(new HotspotSortProxy(model_, this))
    , view_(new QTableView(this))
    , filter_(new QLineEdit(this)) {
    proxy_->setFilterKeyColumn(-1); // name, op, placement, bound ...
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter_->setPlaceholderText(tr("Filter by name, op, placement, bound..."));
    filter_->setClearButtonEnabled(true);
    // Filtering is no choice of a node (issue 63): the proxy moves the current row off a row it hides, which
    // must not select another node; the selection stays, shown again when the filter lets its row back.
    connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
        following_ = true;
        proxy_->setFilterFixedString(text);
        following_ = false;
        follow(hub_->current(), nullptr);
    });
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(HotspotModel::Latency, Qt::DescendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(20);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setColumnWidth(HotspotModel::Name, 240);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(filter_);
    lay->addWidget(view_);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) {
                if (!cur.isValid() || following_)
                    return;
                const NodeId id = model_->nodeAt(proxy_->mapToSource(cur).row());
                hub_->select(id, this);
            });
    connect(hub_, &SelectionHub::changed, this, &HotspotPanel::follow);
    // A batch edit lengthens the Latency and Delta headers ("Latency (us, batch 8)"): widen those columns to
    // show the whole label rather than cut the part that says what the numbers are.
    connect(model_, &QAbstractItemModel::headerDataChanged, this,
            [this](Qt::Orientation o, int first, int last) {
                if (o != Qt::Horizontal)
                    return;
                QHeaderView* header = view_->horizontalHeader();
                for (int column = first; column <= last; ++column)
                    if (const int fit = header->sectionSizeHint(column); view_->columnWidth(column) < fit)
                        view_->setColumnWidth(column, fit);
            });
}

void HotspotPanel::setSnapshot(SnapshotPtr s) {
    model_->setSnapshot(std::move(s));
    follow(hub_->current(), nullptr);
}

void HotspotPanel::reset() {
    filter_->clear();
    following_ = true;
    view_->selectionModel()->clear();
    following_ = false;
    view_->scrollToTop(); // a new model's table starts at its largest item, not where the last one was
}

void HotspotPanel::follow(NodeId id, QObject* sender) {
    if (sender == this)
        return;
    // Following is no user's choice: the row handler must not select again. (Blocking the selection
    // model's signals instead would keep the view from repainting the row it leaves.)
    following_ = true;
    const int row = model_->rowOf(id);
    const QModelIndex idx = row < 0 ? QModelIndex() : proxy_->mapFromSource(model_->index(row, 0));
    if (idx.isValid()) {
        view_->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
        view_->scrollTo(idx);
    } else {
        view_->selectionModel()->clear(); // nothing selected, or a row the filter hides
    }
    following_ = false;
}

} // namespace bpu::ui
