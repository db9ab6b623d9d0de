// SPDX-License-Identifier: MIT
#include "SelectionHub.h"

namespace bpu::ui {

void SelectionHub::select(NodeId id, QObject* sender) {
    if (id == current_)
        return;
    current_ = id;
    emit changed(id, sender);
}

} // namespace bpu::ui
