// SPDX-License-Identifier: MIT
#pragma once

#include "ui/main/Snapshot.h"

#include <QObject>
#include <memory>
#include <nlohmann/json.hpp>

class QAction;
class QMenu;
class QToolBar;
class QWidget;

namespace bpu {
class Edit;
}

namespace bpu::ui {

class SessionController;
class SelectionHub;

/// The what-if actions (toolbar, menu, context menu): each builds a core edit, asks for its parameters
/// where needed, and pushes it on the undo stack as an EditCommand.
class WhatIfActions : public QObject {
    Q_OBJECT
public:
    WhatIfActions(SessionController* controller, SelectionHub* hub, QWidget* dialogParent);
    void addTo(QMenu* menu, QToolBar* toolbar) const;
    void setSnapshot(SnapshotPtr s);
    /// Pushes one edit (a drag step when final is false: it merges with the previous one of the same key).
    void push(EditPtr edit, bool final = true);
    /// Pushes an edit list ({"edits": [...]}: a finding's fix, an edit file) as one undo step named `title`.
    void pushFix(const nlohmann::json& fix, const QString& title);

    QAction* fuseAll = nullptr;
    QAction* unfuseAll = nullptr;
    QAction* fuseGroup = nullptr;
    QAction* unfuseGroup = nullptr;
    QAction* setGroups = nullptr;
    QAction* setBatch = nullptr;
    QAction* setInputShape = nullptr;
    QAction* setChannels = nullptr;
    QAction* removeQdq = nullptr;
    QAction* placeOnBpu = nullptr;
    QAction* placeOnCpu = nullptr;
    QAction* setBaseline = nullptr;

private:
    void updateEnabled();
    const Node* selectedNode() const;

    SessionController* controller_;
    SelectionHub* hub_;
    QWidget* parent_;
    SnapshotPtr snap_;
};

} // namespace bpu::ui
