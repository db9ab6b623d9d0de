// SPDX-License-Identifier: MIT
#pragma once

#include "ui/main/Snapshot.h"

#include <QWidget>

class QTableWidget;
class QUndoView;
class QUndoStack;

namespace bpu::ui {

/// Baseline vs current (latency, FPS, CPU nodes, segments, Q/DQ, waste, fusion) and the edit history.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    ComparePanel(QUndoStack* stack, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    QTableWidget* table() const { return table_; }

private:
    QTableWidget* table_;
    QUndoView* history_;
};

} // namespace bpu::ui
