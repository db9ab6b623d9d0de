// SPDX-License-Identifier: MIT
// Where a layer's weight is stored (issue 46): the initializer it reads, or, in a QAT/QDQ export, the
// initializer behind its fake-quant pair (QuantizeLinear -> DequantizeLinear, through Identity nodes torch
// inserts for shared parameters), with the per-channel scales and zero points the pair reads. A shape edit
// resizes the weight where it is stored and everything between, so a QAT model's convs can be regrouped
// and widened like a float model's.
#pragma once

#include "core/model/Graph.h"

#include <optional>
#include <string>
#include <vector>

namespace bpu {

class GraphPatch;

struct StoredWeight {
    TensorId stored; ///< the initializer holding the weight
    std::vector<TensorId>
        through;               ///< tensors between it and the layer (Q/DQ/Identity outputs), layer side first
    std::vector<NodeId> nodes; ///< the Q/DQ/Identity nodes between
    /// Per-channel quantization parameters (rank 1, more than one element) with the weight axis they run
    /// along; each is the tensor the Q/DQ reads, with the initializer behind an Identity after it.
    struct PerChannel {
        std::vector<TensorId> tensors; ///< as read, then back to the initializer
        size_t axis = 0;
    };
    std::vector<PerChannel> perChannel;
};

/// Sets dim `axis` of tensor `t` to `value`, recorded in `patch`; its known values are dropped (they no
/// longer describe it; only dims matter to the profiler). Nothing when the dim already has that extent.
void resizeTensorDim(Graph& g, GraphPatch& patch, TensorId t, size_t axis, int64_t value);

/// The weight source of tensor `t` (a layer's weight or bias input), or nothing when it is not an
/// initializer nor one behind Q/DQ/Identity nodes each only reading the one before.
std::optional<StoredWeight> storedWeight(const Graph& g, TensorId t);

/// Sets dim `axis` of the weight to `value` where it is stored, on every tensor between, and on the
/// per-channel parameters along that axis. Returns the initializers resized (for re-inference from them).
std::vector<TensorId> resizeWeight(Graph& g, GraphPatch& patch, const StoredWeight& w, size_t axis,
                                   int64_t value);

/// Throws EditError when a tensor resizeWeight would resize along `axis` is read by anything but the chain
/// and `layer` (named `name`): resizing it would change another layer too.
void requireWeightUnshared(const Graph& g, const StoredWeight& w, NodeId layer, const std::string& name,
                           size_t axis);

} // namespace bpu
