// SPDX-License-Identifier: MIT
#pragma once

#include "CostEstimate.h"
#include "core/model/Graph.h"

#include <string>
#include <vector>

namespace bpu {

/// How a node of the current model stands against the baseline (issue 63).
enum class NodeChangeKind {
    Paired, ///< a baseline node has its name: its delta is now minus then, per image
    New,    ///< no baseline node has its name (an edit added it): never a delta
};

/// The current model's nodes against a baseline's, paired by node name (names are unique in a graph and the
/// edits and rewrites keep them) and compared per image (the batch divided out), so a fix that adds or
/// removes nodes, or a batch edit, does not shift every other node's delta. One table for every front end:
/// the GUI's hotspots, graph colouring, inspector and status bar, and the report's what-if section. Not the
/// compare module's structural matcher: it would pair a new Relu with a removed Sigmoid.
class NodeDeltas {
public:
    NodeDeltas() = default;
    NodeDeltas(const Graph& now, const CostEstimate& nowCost, const Graph& base,
               const CostEstimate& baseCost);

    NodeChangeKind kind(NodeId now) const;
    /// The baseline node of the same name; invalid for a new node.
    NodeId baselineNode(NodeId now) const;
    /// The node's latency per image now, and in the baseline (0 for a new node).
    double nowUs(NodeId now) const;
    double baselineUs(NodeId now) const;
    /// Now minus baseline, microseconds per image; 0 for a new node (check kind() first: it is no delta).
    double deltaUs(NodeId now) const;

    /// The baseline's nodes no current node is named like (an edit removed them), and their time per image.
    const std::vector<std::string>& removed() const { return removed_; }
    double removedUs() const { return removedUs_; }
    size_t newCount() const { return newCount_; }

    int batchNow() const { return batchNow_; }
    int batchBaseline() const { return batchBase_; }
    /// Either side serves more than one image per inference: the figures are per image, not per inference.
    bool perImage() const { return batchNow_ != 1 || batchBase_ != 1; }
    size_t size() const { return baseline_.size(); }

private:
    std::vector<NodeId> baseline_;       ///< by current node
    std::vector<double> nowUs_, baseUs_; ///< per image, by current node
    std::vector<std::string> removed_;
    double removedUs_ = 0;
    size_t newCount_ = 0;
    int batchNow_ = 1, batchBase_ = 1;
};

} // namespace bpu
