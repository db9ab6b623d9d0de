// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

#include <string>
#include <string_view>
#include <vector>

namespace bpu::layout {

/// The scope components of a node name as exporters write them: "/layer1/layer1.0/conv1/Conv" ->
/// {"layer1", "layer1.0", "conv1"} (the last component names the node itself). A name without a leading
/// '/' or with no inner '/' has no scope.
std::vector<std::string_view> scopeComponents(std::string_view nodeName);

/// One name scope: the nodes directly in it and its child scopes. Scope 0 is the root (the model).
struct Scope {
    std::string name;          ///< last component ("layer1.0"); empty for the root
    std::string path;          ///< "/layer1/layer1.0"; empty for the root
    int parent = -1;           ///< -1 for the root
    std::vector<int> children; ///< child scopes, in order of their first node in topological order
    std::vector<NodeId> nodes; ///< nodes directly in this scope (not in a child), topological order
    size_t nodeCount = 0;      ///< nodes in this scope and below
};

/// The name-scope tree of a graph, so a big model can be drawn as collapsible blocks (issue 16). Built in
/// one pass over the nodes: O(nodes x scope depth).
class ScopeTree {
public:
    static ScopeTree build(const Graph& graph);

    const std::vector<Scope>& scopes() const { return scopes_; }
    const Scope& scope(int id) const { return scopes_[size_t(id)]; }
    /// The graph's node count (scopeOf takes ids below it).
    size_t nodeCount() const { return scopeOfNode_.size(); }
    /// The deepest scope holding `node` (0: the root, a node without scope).
    int scopeOf(NodeId node) const { return scopeOfNode_[node.value]; }
    /// True if `scope` is `ancestor` or lies below it.
    bool isWithin(int scope, int ancestor) const;

    /// Per node, the collapsed scope that stands for it, or -1 where the node is drawn itself: a node shows
    /// as the outermost scope on its path that is not expanded (the root always is). `expanded` has one
    /// entry per scope.
    std::vector<int> visibleScopes(const std::vector<bool>& expanded) const;
    /// The units (collapsed scopes and single nodes) drawn under `expanded`.
    size_t visibleUnits(const std::vector<bool>& expanded) const;
    /// The default expansion of a big model: the root, then scopes level by level (widest first) while the
    /// drawn units stay within `maxUnits`. A scope that holds a single child scope and no node of its own
    /// (`/encoder` around `/encoder/layers.N`) opens together with that child: it is one box either way.
    std::vector<bool> defaultExpansion(size_t maxUnits) const;
    /// `expanded` opened along the path to `node` (search and selection reveal what they need).
    void reveal(NodeId node, std::vector<bool>& expanded) const;

    /// Sums a per-node value over each scope (latency, waste): one entry per scope.
    std::vector<double> sum(const std::vector<double>& perNode) const;
    /// The largest per-node rank in each scope (worst placement): one entry per scope, -1 when empty.
    std::vector<int> maxRank(const std::vector<int>& perNode) const;

private:
    std::vector<Scope> scopes_;
    std::vector<int> scopeOfNode_;
    std::vector<int> depth_;
};

} // namespace bpu::layout
