// SPDX-License-Identifier: MIT
#include "SelectionHub.h"

namespace bpu::ui {

void SelectionHub::select(NodeId id, QObject* sender) {
    if (id == current_)
        return;
    current_ = id;
    emit changed(id, sender);
}

void SelectionHub::reset() {
    if (!current_.valid())
        return;
    current_ = NodeId{};
    emit changed(current_, this);
}

} // namespace bpu::ui
