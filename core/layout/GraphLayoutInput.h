// SPDX-License-Identifier: MIT
#pragma once

#include "LayeredLayout.h"

#include "core/model/Graph.h"

#include <functional>
#include <vector>

namespace bpu::layout {

/// Box size for a set of graph nodes drawn as one box (a single node, or a collapsed group).
using BoxSizer = std::function<Size(const std::vector<NodeId>& members)>;

/// The layout input derived from a bpu::Graph. Boxes are numbered in topological order of their first
/// member; an edge joins the boxes of a tensor's producer and consumer (initializers and model inputs have
/// no producer and so no edge); parallel tensors between the same two boxes share one edge.
struct GraphLayoutInput {
    Input input;
    std::vector<int> boxOfNode;                       ///< per graph node
    std::vector<std::vector<NodeId>> membersOfBox;    ///< graph nodes of each box, in topological order
    std::vector<int> groupOfBox;                      ///< the collapsed group a box stands for, or -1
    std::vector<std::vector<TensorId>> tensorsOfEdge; ///< per input edge
};

/// Default sizes: 168x48 for a node, 184x60 for a collapsed group.
Size defaultBoxSize(const std::vector<NodeId>& members);

/// Builds the layout input. `groupOf` (empty, or one entry per graph node) collapses the nodes sharing a
/// group id >= 0 into one box; -1 leaves a node on its own. Collapsing a group that is not convex can create
/// a cycle, which the layout breaks.
GraphLayoutInput buildGraphLayoutInput(const Graph& graph, const std::vector<int>& groupOf = {},
                                       const BoxSizer& sizer = defaultBoxSize);

} // namespace bpu::layout
