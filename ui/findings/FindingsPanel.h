// SPDX-License-Identifier: MIT
#pragma once

#include "ui/main/Snapshot.h"

#include <QWidget>
#include <nlohmann/json.hpp>

class QTreeWidget;
class QPushButton;
class QTextBrowser;

namespace bpu::ui {

class SelectionHub;

/// Findings ranked by estimated gain, with the rule, evidence, affected nodes and a one-click fix.
class FindingsPanel : public QWidget {
    Q_OBJECT
public:
    FindingsPanel(SelectionHub* hub, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    QTreeWidget* tree() const { return tree_; }

signals:
    /// The finding's fix as an edit list ({"edits": [...]}) to apply as one undoable what-if.
    void applyFix(const nlohmann::json& fix, const QString& title);

private:
    void showDetails(int index);

    SelectionHub* hub_;
    SnapshotPtr snap_;
    QTreeWidget* tree_;
    QTextBrowser* details_;
    QPushButton* apply_;
    int current_ = -1;
};

/// The guide's rule text for an id ("G6.1"), from resources/rules/guide-rules.json; empty if unknown.
QString ruleText(const QString& ruleId);

} // namespace bpu::ui
