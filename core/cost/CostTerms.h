// SPDX-License-Identifier: MIT
#pragma once

#include "CostEstimate.h"
#include "core/analysis/AnalysisResult.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <string>
#include <utility>
#include <vector>

namespace bpu {

/// A profile parameter a term reads, with its value and where it comes from.
struct ParamValue {
    std::string key; ///< as in the profile ("dense_conv_efficiency", "alignment.conv_c")
    double value = 0;
    bool estimate = false;  ///< the profile marks it an estimate
    std::string note;       ///< its source, or why the estimate
    bool identified = true; ///< false: the calibration data does not pin it down (Param::identified)
};

/// One term of a node's latency as the cost engine computed it: its value, the formula with its inputs and
/// parameters named, and their values. Front ends print these instead of restating the cost model.
struct FormulaTerm {
    std::string name;    ///< "compute", "memory", "layer", "latency", "Q/DQ", "switch"
    double us = 0;       ///< the term's value, microseconds
    std::string formula; ///< e.g. "padded MACs / (peak_int8_tops / 2 x dense_conv_efficiency)"
    std::vector<std::pair<std::string, double>> inputs; ///< the quantities it reads ("padded MACs", ...)
    std::vector<ParamValue> params;                     ///< the profile parameters it reads
};

/// How node `id`'s latency was made, term by term, in the order the cost engine computes them: a BPU node's
/// compute and DDR time, its layer's pipelined time and fixed cost and the node's part of it; a CPU node's
/// arithmetic and memory time; then the cost rows next to it (input conversion, Q/DQ passes, requantize,
/// CPU<->BPU switches), which are not part of its latency. Empty for a node that
/// costs nothing (folded, removed by a what-if).
std::vector<FormulaTerm> nodeCostTerms(const Graph& g, const AnalysisResult& r, const CostEstimate& c,
                                       const TargetProfile& t, NodeId id);

/// The profile parameter `key` with its value and source (empty key when the profile has none such).
ParamValue paramValue(const TargetProfile& t, const std::string& key);

} // namespace bpu
