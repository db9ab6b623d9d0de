// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Ids.h"

#include <QObject>

namespace bpu::ui {

/// The one selection every panel publishes to and follows. `changed` carries the sender so a panel does
/// not react to its own selection (no echo, no loops).
class SelectionHub : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    NodeId current() const { return current_; }
    void select(NodeId id, QObject* sender);

signals:
    void changed(bpu::NodeId id, QObject* sender);

private:
    NodeId current_;
};

} // namespace bpu::ui

