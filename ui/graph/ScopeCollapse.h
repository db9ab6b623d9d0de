// SPDX-License-Identifier: MIT
#pragma once

#include "core/cost/ScopeFigures.h"
#include "core/layout/ScopeTree.h"
#include "core/model/Graph.h"

#include <QString>
#include <map>
#include <memory>
#include <vector>

namespace bpu::ui {

/// Name-scope collapsing for the graph view of a big model (issue 16): nodes of a collapsed scope
/// (`/model.22`, `/encoder/layers.3`) are drawn as one group box, so a 100k-node model opens as its
/// top-level blocks rather than 100k boxes. Scopes are opened on double-click, and along the path to a node
/// that is selected or searched for; an opened scope collapses again from the context menu (or Backspace on
/// a selected node inside it). Small models (and models without scoped names) are drawn as before.
class ScopeCollapse {
public:
    /// Group ids of scope boxes start here, above any fused group's id.
    static constexpr int kGroupBase = 1 << 24;
    /// Below this many nodes every node is drawn (the layout stays legible and fast).
    static constexpr size_t kMinNodes = 1500;
    /// The boxes a default view of a big model aims at.
    static constexpr size_t kDefaultUnits = 400;

    /// A new model (null: none): builds its scope tree and the default expansion when it is big.
    void reset(const Graph* graph);
    /// The scope tree of `graph` when it is big enough to collapse and has scoped names, else null.
    /// Thread-safe: a layout worker builds it (a 100k-node model's takes ~0.2 s, too long for the GUI
    /// thread).
    static std::shared_ptr<const layout::ScopeTree> buildTree(const Graph* graph);
    /// Takes a tree from buildTree() (null: nothing to collapse) for the same model, with its default
    /// expansion; figures set meanwhile are summed over it.
    void adopt(std::shared_ptr<const layout::ScopeTree> tree);
    std::shared_ptr<const layout::ScopeTree> tree() const { return tree_; }
    bool active() const { return tree_ != nullptr; }
    static bool isScopeGroup(int group) { return group >= kGroupBase; }
    /// Opens the scope behind a scope group's box; the node to keep in place on screen, or invalid if the
    /// group is not a collapsed scope.
    NodeId open(int group);
    /// Opens the scopes on the path to `node`; true if one was collapsed (the layout must run again).
    bool reveal(NodeId node);
    /// The open scopes holding `node` that collapsing would change (more than one node), innermost first, as
    /// scope groups.
    std::vector<int> openScopesOf(NodeId node) const;
    /// Collapses the scope of a scope group back into one box (what it holds keeps its own open state, so
    /// opening it again shows what was open before); true if it was open.
    bool collapse(int group);
    /// Per node: the collapsed scope's group, else the node's entry in `fused` (its fused group, or -1).
    std::vector<int> groupOf(const std::vector<int>& fused) const;
    /// Box titles of the collapsed scope groups ("/encoder/layers.3").
    std::map<int, QString> labels() const;
    /// The path of a scope group's scope ("/encoder/layers.3"); empty if it is none.
    QString path(int group) const;

    /// Per-node figures of the current state (latency, placement, padding): aggregated per scope here.
    void setFigures(const std::vector<NodeFigures>& nodes);
    bool hasFigures() const { return !figures_.empty(); }
    /// A scope group's figures (null without figures or for another group).
    const ScopeFigures* figures(int group) const;
    /// One line for a scope box: "1.24 ms  12.3%  2 CPU  waste 8%".
    static QString note(const ScopeFigures& f);
    /// The tooltip lines (HTML) for a scope box's figures.
    static QString toolTip(const ScopeFigures& f);

private:
    int scopeOfGroup(int group) const;

    std::shared_ptr<const layout::ScopeTree> tree_;
    std::vector<bool> open_;
    std::vector<NodeFigures> nodeFigures_; ///< kept for a tree that lands after them
    std::vector<ScopeFigures> figures_;
};

/// "850 us", "1.24 ms", "12.5 s": a latency in the unit that reads best.
QString formatLatencyUs(double us);
/// "12.3%", "0.25%", "<0.01%": a share of the model with the digits a small one needs.
QString formatShare(double share);

} // namespace bpu::ui
