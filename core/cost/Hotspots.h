// SPDX-License-Identifier: MIT
#pragma once

#include "CostEstimate.h"
#include "core/model/Graph.h"

#include <string>
#include <vector>

namespace bpu {

/// One line of a hotspot list: a node, or a CostRow (a Q/DQ pass, a transition, the runtime overhead), which
/// are listed on their own rather than added to a neighbouring node.
struct HotspotItem {
    NodeId node;  ///< valid for a node
    int row = -1; ///< index into CostEstimate::rows for a row
    double us = 0;
    double share = 0;
    bool isRow() const { return row >= 0; }
};

/// Nodes and rows by estimated latency, largest first, at most `limit` (0 = all); items of zero time left
/// out.
std::vector<HotspotItem> hotspots(const Graph& g, const CostEstimate& c, size_t limit = 0);
/// For each of `c`'s rows, the time of the same row (same kind, same label) in `baseline`, 0 when the
/// baseline lacks it (an edit made it): the per-row counterpart of comparing node latencies.
std::vector<double> matchingRowUs(const CostEstimate& c, const CostEstimate& baseline);
/// "quantize 'images' (model input)" for a row, the node's name for a node.
std::string hotspotLabel(const Graph& g, const CostEstimate& c, const HotspotItem& item);
/// "Conv" for a node, the row kind ("quantize", "runtime overhead") for a row.
std::string hotspotKind(const Graph& g, const CostEstimate& c, const HotspotItem& item);

} // namespace bpu
