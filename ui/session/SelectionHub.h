// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Ids.h"

#include <QObject>

namespace bpu::ui {

/// The one selection every panel publishes to and follows. `changed` carries the sender so a panel does
/// not react to its own selection (no echo, no loops). Only a user's action selects: a new snapshot, an
/// edit or a re-estimate never does (panels keep the selection across them), and opening a model clears it.
class SelectionHub : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    NodeId current() const { return current_; }
    void select(NodeId id, QObject* sender);
    /// Forgets the selection without announcing a user's choice (a new model: ids mean nothing there).
    void reset();

signals:
    void changed(bpu::NodeId id, QObject* sender);

private:
    NodeId current_;
};

} // namespace bpu::ui
