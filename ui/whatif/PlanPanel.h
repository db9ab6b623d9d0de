// SPDX-License-Identifier: MIT
#pragma once

#include "core/advice/OptimizationPlan.h"
#include "ui/session/Snapshot.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTableWidget;

namespace bpu::ui {

class SessionController;

/// The optimization plan (core/edit/OptimizationPlan): the top fixes applied together, each re-estimated on
/// the ones before it, with the latency and FPS after each step. The user ticks steps and applies them as
/// one undoable what-if. The plan is the engine's; this panel only asks for it and shows it.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    PlanPanel(SessionController* controller, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    /// Asks the engine for the plan of the current state (the Compute button).
    void compute();
    QTableWidget* table() const { return table_; }
    QPushButton* applyButton() const { return apply_; }
    QLabel* summary() const { return summary_; }
    QLabel* skippedLabel() const { return skipped_; }
    std::shared_ptr<const OptimizationPlan> plan() const { return plan_; }

signals:
    /// One composite what-if: the ticked steps' edits in plan order.
    void applyRequested(const bpu::EditList& edits, const QString& label);

private:
    void show(std::shared_ptr<const OptimizationPlan> plan);
    void setBusy(bool busy);
    void updateApply();
    void tickAsPrefix(int row);

    SessionController* controller_;
    QLabel* summary_;
    QPushButton* compute_;
    QPushButton* cancel_;
    QPushButton* apply_;
    QTableWidget* table_;
    QLabel* skipped_; ///< the fixes the plan left out, with why
    SnapshotPtr snapshot_;
    uint64_t planFor_ = 0; ///< the state (Snapshot::generation) the shown plan was made for
    std::shared_ptr<const OptimizationPlan> plan_;
};

} // namespace bpu::ui
