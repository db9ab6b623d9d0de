// SPDX-License-Identifier: MIT
#pragma once

#include "CostEstimate.h"
#include "core/analysis/AnalysisResult.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <map>
#include <string>
#include <vector>

namespace bpu {

/// A model's time split into the kinds of term the cost engine prices it with, each with the profile keys
/// that price it (issue 62: which parameters a fix's gain rests on). The terms are the ones nodeCostTerms()
/// explains: a BPU node's compute (by its rate: dense conv, depthwise, MatMul, vector, ...) and DDR time, a
/// layer's fixed cost and the part of it the load/compute overlap hides, a CPU node's arithmetic and memory,
/// and the rows of their own (Q/DQ passes, switches, requantize, input conversion, runtime overhead).
struct PricedTime {
    struct Part {
        std::vector<std::string> keys; ///< the profile keys the term reads
        double us = 0;                 ///< its total over the model per image, microseconds
    };
    std::map<std::string, Part> parts; ///< by kind of term ("compute: padded MACs / (...)", "DDR", ...)
};

/// The time of the analysed model `r`/`c` by kind of term. `twoThreads`: the figure is the two-thread
/// throughput, where the CPU-side time (CPU nodes, Q/DQ, switches, the runtime) is also priced by
/// thread_overlap.
PricedTime pricedTime(const Graph& g, const AnalysisResult& r, const CostEstimate& c, const TargetProfile& t,
                      bool twoThreads);

/// The profile keys on which at least `share` of the change from `before` to `after` rests: the keys whose
/// terms changed by at least that share of everything that changed (each kind of term's change counted once,
/// by its size). Empty when nothing changed.
std::vector<std::string> keysCarryingChange(const PricedTime& before, const PricedTime& after,
                                            double share = 0.5);

} // namespace bpu
