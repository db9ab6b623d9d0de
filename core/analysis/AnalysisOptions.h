// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisTypes.h"

#include <map>
#include <set>
#include <string>

namespace bpu {

/// What the user decided over the engine's defaults (what-if state that is not a graph change).
struct AnalysisOptions {
    std::map<std::string, Placement> placementOverrides; ///< node name -> forced placement
    bool fuse = true;                   ///< fuse every fusable chain (the toolchain's JIT default)
    std::set<std::string> unfusedHeads; ///< head node names of groups kept apart
    std::set<std::string> fusedHeads;   ///< with fuse=false: head names still fused
    bool foldBoundaryQdq = false;       ///< model-I/O quantize/dequantize moved into pre/post-processing
    Precision defaultPrecision = Precision::Int8;
};

} // namespace bpu
