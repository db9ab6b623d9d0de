// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QWidget>

class QTextBrowser;

namespace bpu::ui {

class SelectionHub;
class SessionController;
class ShapeEditor;

/// The selected node in full (NodeDetails) and its drag-edit shape editor.
class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    InspectorPanel(SelectionHub* hub, SessionController* controller, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    /// Nothing selected, the editor back to nothing (a new model).
    void reset();
    ShapeEditor* shapeEditor() const { return editor_; }
    QTextBrowser* details() const { return details_; }

private:
    void show(NodeId id);

    SelectionHub* hub_;
    SnapshotPtr snap_;
    QTextBrowser* details_;
    ShapeEditor* editor_;
};

} // namespace bpu::ui
