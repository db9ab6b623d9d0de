// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QTableWidget;

namespace bpu::ui {

class SessionController;

/// Baseline vs current (latency, FPS, CPU nodes, segments, Q/DQ, waste, fusion) and the undo history; a
/// click in the history goes back (or forward) to that step.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    ComparePanel(SessionController* controller, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    QTableWidget* table() const { return table_; }
    QListWidget* history() const { return history_; }

private:
    SessionController* controller_;
    QTableWidget* table_;
    QLabel* baseline_;
    QListWidget* history_;
};

} // namespace bpu::ui
