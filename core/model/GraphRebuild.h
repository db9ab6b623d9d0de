// SPDX-License-Identifier: MIT
// What a rebuilt graph (a cut, a rewrite) carries over from the one it replaces: the model's own facts, and
// of each tensor everything but its id, name and wiring, which the new graph's intern and link() set.
#pragma once

#include "Graph.h"

namespace bpu {

/// A graph with no nodes or tensors yet, with `g`'s file, IR version, producer, opsets and diagnostics.
inline Graph emptyLike(const Graph& g) {
    Graph out;
    out.path = g.path;
    out.irVersion = g.irVersion;
    out.producerName = g.producerName;
    out.producerVersion = g.producerVersion;
    out.opsets = g.opsets;
    out.diagnostics = g.diagnostics;
    return out;
}

inline void copyTensorFacts(Tensor& to, const Tensor& from) {
    to.dtype = from.dtype;
    to.shape = from.shape;
    to.declaredShape = from.declaredShape;
    to.isInitializer = from.isInitializer;
    to.isGraphInput = from.isGraphInput;
    to.storage = from.storage;
    to.externalLocation = from.externalLocation;
    to.value = from.value;
}

} // namespace bpu
