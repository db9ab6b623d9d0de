// SPDX-License-Identifier: MIT
#pragma once

#include "ui/main/Snapshot.h"

#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTableWidget;
class QUndoView;
class QUndoStack;

namespace bpu {
struct Comparison;
}

namespace bpu::ui {

/// Baseline vs current (latency, FPS, CPU nodes, segments, Q/DQ, waste, fusion) and the edit history; while a
/// comparison with another model is shown (File > Compare With...), this model vs that one instead.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    ComparePanel(QUndoStack* stack, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    /// Shows the open model (A) against `otherName` (B) until clearComparison().
    void setComparison(std::shared_ptr<const Comparison> c, const QString& otherName);
    void clearComparison();
    QTableWidget* table() const { return table_; }
    QLabel* comparisonLabel() const { return header_; }

signals:
    /// The user asked to stop comparing with the other model.
    void clearComparisonRequested();

private:
    struct Row {
        QString name;
        double base, cur;
        int decimals;
        bool lowerIsBetter;
    };
    void fill(const std::vector<Row>& rows);

    QLabel* header_;
    QPushButton* clear_;
    QTableWidget* table_;
    QUndoView* history_;
    SnapshotPtr snapshot_;
    std::shared_ptr<const Comparison> comparison_;
};

} // namespace bpu::ui
