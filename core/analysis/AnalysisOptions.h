// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisFwd.h"
#include "core/deploy/DeploySettings.h"
#include "core/target/Placement.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace bpu {

/// What the user decided over the engine's defaults (what-if state that is not a graph change).
struct AnalysisOptions {
    std::map<std::string, Placement> placementOverrides; ///< node name -> forced placement
    bool fuse = true;                   ///< fuse every fusable chain (the toolchain's JIT default)
    std::set<std::string> unfusedHeads; ///< head node names of groups kept apart
    std::set<std::string> fusedHeads;   ///< with fuse=false: head names still fused
    /// How the board runs the model (hb_compile's config): runtime input types, boundary ops removed.
    DeploySettings deploy = DeploySettings::fastPerf();
    Precision defaultPrecision{}; ///< Precision::Int8
    /// set_precision for the whole model: every BPU node at this precision, over the deployment's own.
    std::optional<Precision> modelPrecision;
    std::map<std::string, Precision> precisionOverrides; ///< set_precision per node (node name -> int8/int16)

    // What-if assumptions, so every finding's fix can be estimated by re-running the engine:
    std::set<std::string> forceFusedHeads; ///< chains fused even where the graph blocks it (G3 misses fixed)
    std::set<std::string> assumeResident;  ///< tensors kept in SRAM (G6.2/G6.4 fixed)
    std::set<std::string> assumeAligned;   ///< tensors without padding (G4 fixed)
    std::set<std::string> assumeRemoved;   ///< nodes that cost nothing (G6.6 chains merged)
    int64_t filterOutputsKeep = 0; ///< >0: detection outputs dequantize only this many candidates (G1.1)

    bool operator==(const AnalysisOptions&) const = default;
};

} // namespace bpu
