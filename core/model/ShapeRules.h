// SPDX-License-Identifier: MIT
#pragma once

#include "Graph.h"

#include <string>

namespace bpu {

/// Output-shape rules for ops where onnx 1.12's own inference stops short although the inputs decide the
/// shape: Einsum (rank only), OneHot (ignores the depth value), MaxUnpool (ignores output_shape), STFT
/// (ignores onesided), StringNormalizer without stopwords. Applied after onnx's function; only fills dims
/// onnx left open (or corrects STFT's bin count), from known input shapes and values.
class ShapeRules {
public:
    /// Refines `shape`, onnx's result for output `index` of `n`; returns true if it changed it.
    static bool refine(const Graph& g, const Node& n, size_t index, TensorShape& shape);
    /// Why an element-preserving node (Reshape, Flatten, Squeeze, Unsqueeze) does not hold its input's
    /// elements after inference, or empty. onnx writes a constant Reshape target as it is, without checking
    /// it against the input: a model exported at one input size and imported (or edited) at another would
    /// otherwise carry a shape that is silently wrong.
    static std::string elementCountMismatch(const Graph& g, const Node& n);
};

} // namespace bpu
