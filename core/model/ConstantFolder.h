// SPDX-License-Identifier: MIT
#pragma once

#include "Graph.h"

#include <memory>
#include <vector>

namespace bpu {

/// Evaluates shape arithmetic on small constant tensors (Shape, Gather, Concat, Unsqueeze, Slice, Cast,
/// elementwise int math, ...), so that Reshape/Resize/Expand targets computed by exporters through
/// Shape -> Gather -> Concat chains become known values for onnx's shape inference.
class ConstantFolder {
public:
    /// Output values for `node` if every input it needs is known; empty vector if the node cannot be folded.
    static std::vector<std::shared_ptr<const ConstValue>> fold(const Graph& g, const Node& node);
};

} // namespace bpu
