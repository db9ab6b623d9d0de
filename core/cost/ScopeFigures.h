// SPDX-License-Identifier: MIT
#pragma once

#include "core/layout/ScopeTree.h"
#include "core/model/Ids.h"
#include "core/target/Placement.h"

#include <cstdint>
#include <vector>

namespace bpu {

struct AnalysisResult;
struct CostEstimate;
class Graph;

/// What one node brings to the figures of the name scopes holding it.
struct NodeFigures {
    double latencyUs = 0;
    double share = 0; ///< of the model's latency (NodeCost::share)
    Placement placement = Placement::BPU;
    int64_t wasteBytes = 0;  ///< padding waste of its outputs, over the ones the BPU alignment applies to
    int64_t paddedBytes = 0; ///< padded bytes of those same outputs
};

/// A name scope's figures (issue 16: a collapsed scope box says what the nodes it hides cost): sums over
/// every node in the scope and below it.
struct ScopeFigures {
    double latencyUs = 0;
    double share = 0; ///< of the model's latency
    size_t nodes = 0;
    size_t bpuNodes = 0, cpuNodes = 0, foldedNodes = 0;
    int64_t wasteBytes = 0, paddedBytes = 0;
    NodeId hottest; ///< the node with the most latency in the scope
    double hottestUs = -1;

    /// The worst placement inside: CPU if any node runs there, else BPU if any, else folded.
    Placement worstPlacement() const;
    /// Padding waste / padded bytes over the scope's padded outputs (0 without any).
    double wasteRatio() const { return paddedBytes > 0 ? double(wasteBytes) / double(paddedBytes) : 0.0; }
};

/// Per node, from one analysis and its cost estimate (one entry per graph node).
std::vector<NodeFigures> nodeFigures(const Graph& graph, const AnalysisResult& analysis,
                                     const CostEstimate& cost);

/// Per scope of `tree` (one entry per scope; scope 0 is the whole model). O(nodes + scopes): each node adds
/// to its own scope, then one pass from the leaves up adds every scope to its parent.
std::vector<ScopeFigures> scopeFigures(const layout::ScopeTree& tree, const std::vector<NodeFigures>& nodes);

} // namespace bpu
