// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

namespace bpu {

class Graph;
struct AnalysisResult;

/// Per node, the fused layer a drawing frames it in (the group's id), or -1: every member of a fused group,
/// and a node the compiler folds into that layer's output (issue 63: PP-OCR's ConvTranspose+Add is followed
/// by a BatchNormalization and a Relu; BN is fusable only straight after a conv, so no group takes them, and
/// folded (no cost of their own, s100-facts.md) they were drawn as lone grey boxes beside the layer whose
/// output they change). A folded node joins its runtime input's layer when it is that tensor's only
/// reader, in topological order (BN then Relu). The graph view and the report's overview both draw this.
std::vector<int> drawnGroupOf(const Graph& g, const AnalysisResult& r);

} // namespace bpu
