// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace bpu {

/// The what-if options name the nodes and tensors they change (AnalysisOptions: assumeRemoved,
/// assumeAligned, unfusedHeads, ...), and a pass asks about every node or tensor. Looked up once per name
/// here, then asked by id: a set lookup per node compares ~log2(names) strings, and a transformer's G6.6 fix
/// names 10k nodes at 100k, so every re-analysis of its gain trial spent that per node.
/// Empty when `names` is (no allocation for the common case), else one flag per node or tensor; a name the
/// graph does not have marks nothing.
std::vector<uint8_t> nodesNamed(const Graph& g, const std::set<std::string>& names);
std::vector<uint8_t> tensorsNamed(const Graph& g, const std::set<std::string>& names);

/// `mask` from above says yes for `i` (an empty mask says no for every id).
inline bool named(const std::vector<uint8_t>& mask, uint32_t i) {
    return !mask.empty() && mask[i];
}

} // namespace bpu
