// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QObject>

class QAction;
class QMenu;
class QToolBar;
class QWidget;

namespace bpu::ui {

class SessionController;
class SelectionHub;

/// The what-if actions (toolbar, menu, context menu): each builds a core edit, asks for its parameters
/// where needed, and hands it to the session controller as one undo step.
class WhatIfActions : public QObject {
    Q_OBJECT
public:
    WhatIfActions(SessionController* controller, SelectionHub* hub, QWidget* dialogParent);
    void addTo(QMenu* menu, QToolBar* toolbar) const;
    void setSnapshot(SnapshotPtr s);
    /// Applies `edits` to the open model as one undo step named `label` (a finding's fix, an edit file).
    void apply(EditList edits, const QString& label);

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
    QAction* modelInt16 = nullptr; ///< set_precision int16 on the whole model
    QAction* modelInt8 = nullptr;  ///< set_precision int8 on the whole model
    QAction* nodeInt16 = nullptr;  ///< set_precision int16 on the selected node
    QAction* toRelu = nullptr;     ///< replace_activation relu on the selected activation
    QAction* toRelu6 = nullptr;    ///< replace_activation relu6 on the selected activation
    QAction* removePair = nullptr; ///< remove_transform_pair on the selected transform
    QAction* setBaseline = nullptr;

private:
    void updateEnabled();
    const Node* selectedNode() const;
    /// One edit as its own undo step, named after the action.
    void applyOne(EditPtr edit, QAction* from);
    /// The node replace_activation is to name for the selection, or empty when it is no activation.
    std::string activationHead() const;

    SessionController* controller_;
    SelectionHub* hub_;
    QWidget* parent_;
    SnapshotPtr snap_;
};

} // namespace bpu::ui
