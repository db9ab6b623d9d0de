// SPDX-License-Identifier: MIT
#pragma once

#include "Graph.h"

#include <string>
#include <vector>

namespace bpu {

/// Cutting a graph at some tensors: they become model outputs and everything only they fed is dropped, as a
/// deployed detector ends at its heads and runs decoding and NMS in post-processing.
///
/// The outputs after the cut are the cut tensors (in the order given) followed by every old output that
/// does not depend on a cut tensor (a second head the cut does not touch stays). Kept: the nodes those
/// outputs need - one cut tensor may be computed from another (a two-stage detector's proposals and the box
/// head that reads them), both are outputs. Every model input stays (its shape is the model's interface),
/// used or not.
struct GraphCut {
    /// Checks `tensors` against `g` and returns the nodes kept (by NodeId). Throws std::invalid_argument
    /// naming the problem: an unknown tensor, a model input, an initializer or a tensor no node computes, a
    /// tensor named twice, or a cut that drops nothing.
    static std::vector<bool> keptNodes(const Graph& g, const std::vector<std::string>& tensors);
    /// The graph after the cut: kept nodes and the tensors they use, renumbered in their old order, linked,
    /// with the new outputs. Shapes, dtypes and values are kept (nothing upstream changed).
    static Graph apply(const Graph& g, const std::vector<std::string>& tensors);
};

} // namespace bpu
