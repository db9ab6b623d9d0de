// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QWidget>
#include <optional>

class QComboBox;
class QTreeWidget;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace bpu::ui {

class SelectionHub;

/// Findings ranked by estimated gain, with the rule, evidence, affected nodes and a one-click fix. Choosing
/// a finding selects its first node, once: a new snapshot keeps the chosen finding (and the selection)
/// without selecting again.
class FindingsPanel : public QWidget {
    Q_OBJECT
public:
    FindingsPanel(SelectionHub* hub, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    /// No finding chosen (a new model).
    void reset();
    QTreeWidget* tree() const { return tree_; }
    QPushButton* applyButton() const { return apply_; }
    QPushButton* whatIfButton() const { return whatIf_; }
    QPushButton* alternativeButton() const { return alternative_; }
    QComboBox* objectiveBox() const { return objective_; }

signals:
    /// The user chose what the findings rank by (issue 62): a session setting, not an edit.
    void objectiveChosen(bpu::Objective objective);
    /// The finding's fix (or its idealized what-if) to apply as one undo step named `title`.
    void applyFix(const bpu::EditList& fix, const QString& title);

private:
    void showDetails(int index, bool userChoice);

    SelectionHub* hub_;
    SnapshotPtr snap_;
    QTreeWidget* tree_;
    QTextBrowser* details_;
    QPushButton* apply_;
    QPushButton* whatIf_;
    QPushButton* alternative_; ///< shown for a finding with an alternative fix (a larger input size)
    QLabel* folded_;           ///< the findings folded below the list, in one line
    QComboBox* objective_;     ///< "Rank by": latency (one frame) or throughput (FPS)
    int current_ = -1;
    /// The chosen finding across snapshots (its index moves as gains re-rank): rule and first node.
    std::optional<std::pair<std::string, uint32_t>> chosen_;
    bool refreshing_ = false;
};

/// The guide's rule text for an id ("G6.1"), from resources/rules/guide-rules.json; empty if unknown.
QString ruleText(const QString& ruleId);

} // namespace bpu::ui
