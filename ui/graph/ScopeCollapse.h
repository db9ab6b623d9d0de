// SPDX-License-Identifier: MIT
#pragma once

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
/// that is selected or searched for. Small models (and models without scoped names) are drawn as before.
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
    bool active() const { return tree_ != nullptr; }
    static bool isScopeGroup(int group) { return group >= kGroupBase; }
    /// Opens the scope behind a scope group's box; the node to keep in place on screen, or invalid if the
    /// group is not a collapsed scope.
    NodeId open(int group);
    /// Opens the scopes on the path to `node`; true if one was collapsed (the layout must run again).
    bool reveal(NodeId node);
    /// Per node: the collapsed scope's group, else the node's entry in `fused` (its fused group, or -1).
    std::vector<int> groupOf(const std::vector<int>& fused) const;
    /// Box titles of the collapsed scope groups ("/encoder/layers.3").
    std::map<int, QString> labels() const;

private:
    std::shared_ptr<const layout::ScopeTree> tree_;
    std::vector<bool> open_;
};

} // namespace bpu::ui
