// SPDX-License-Identifier: MIT
#include "InspectorPanel.h"

#include "NodeDetails.h"
#include "ShapeEditor.h"
#include "ui/session/SelectionHub.h"

#include <QScrollBar>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace bpu::ui {

InspectorPanel::InspectorPanel(SelectionHub* hub, SessionController* controller, QWidget* parent)
    : QWidget(parent), hub_(hub), details_(new QTextBrowser(this)), editor_(new ShapeEditor(controller, this)) {
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(details_);
    split->addWidget(editor_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(split);
    connect(hub_, &SelectionHub::changed, this, [this](NodeId id, QObject*) { show(id); });
}

void InspectorPanel::setSnapshot(SnapshotPtr s) {
    snap_ = s;
    editor_->setSnapshot(s);
    const int scroll = details_->verticalScrollBar()->value();
    if (snap_)
        details_->setHtml(nodeDetailsHtml(*snap_, hub_->current()));
    details_->verticalScrollBar()->setValue(scroll);
}

void InspectorPanel::reset() {
    editor_->reset();
    details_->clear();
    if (snap_)
        details_->setHtml(nodeDetailsHtml(*snap_, NodeId{}));
}

void InspectorPanel::show(NodeId id) {
    if (snap_)
        details_->setHtml(nodeDetailsHtml(*snap_, id));
    editor_->setNode(id);
}

} // namespace bpu::ui
