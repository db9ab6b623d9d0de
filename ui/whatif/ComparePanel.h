// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace bpu {
struct Comparison;
}

namespace bpu::ui {

class SessionController;

/// Baseline vs current (the three latency figures, CPU nodes, segments, Q/DQ, waste, fusion) and the undo
/// history, where a click goes back (or forward) to that step, and the edits kept aside because they did not
/// apply to the model as opened, each removable. While a comparison with another model is shown
/// (File > Compare With...), the table is this model vs that one instead.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    ComparePanel(SessionController* controller, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    void setComparison(std::shared_ptr<const Comparison> c, const QString& otherName);
    void clearComparison();
    QTableWidget* table() const { return table_; }
    QListWidget* history() const { return history_; }
    /// The edits kept aside (Snapshot::kept), greyed, with why in each tooltip; hidden when there are none.
    QListWidget* kept() const { return kept_; }
    QPushButton* removeKeptButton() const { return removeKept_; }
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
    void showBaseline(const Snapshot& s);
    void showKept(const Snapshot& s);
    void removeSelectedKept();

    SessionController* controller_;
    QLabel* header_;
    QPushButton* clear_;
    QTableWidget* table_;
    QLabel* baseline_;
    QListWidget* history_;
    QLabel* keptLabel_;
    QListWidget* kept_;
    QPushButton* removeKept_;
    SnapshotPtr snapshot_;
    std::shared_ptr<const Comparison> comparison_;
};

} // namespace bpu::ui
