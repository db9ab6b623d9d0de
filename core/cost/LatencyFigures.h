// SPDX-License-Identifier: MIT
#pragma once

#include "CostEstimate.h"
#include "core/analysis/AnalysisFwd.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <optional>
#include <vector>

namespace bpu {

/// The labelled latency figures every one-row summary of a model prints (compare, sweep, the vendor-shaped
/// perf JSON). They are read from a CostEstimate here and nowhere else, so a change in how the cost engine
/// states them is one edit in LatencyFigures.cpp.
struct LatencyFigures {
    double bpuMs = 0;     ///< BPU time alone, one inference (what the compiler's static estimate shows)
    double latencyMs = 0; ///< one inference of the deployed model, one thread (what the board tool shows)
    double fps = 0;       ///< images per second with one thread
    std::optional<double> fps2; ///< with two threads, when the estimate states it
    int batch = 1;
};
LatencyFigures latencyFigures(const CostEstimate& e);

/// One BPU layer as the compiler builds it: a fused group, or a BPU node of its own; in topological order.
struct BpuLayer {
    NodeId head;                 ///< the group's head (its name names the layer)
    std::vector<NodeId> members; ///< head first
    int segment = -1;
    double latencyUs = 0;   ///< the layer's BPU time: its members' latencies (Q/DQ and switches are rows);
                            ///< the layers add up to CostEstimate::bpuUs
    double computeUs = 0;   ///< compute time alone, without DDR (NodeAnalysis::computeUs added up)
    int64_t loadBytes = 0;  ///< read from DDR: weights and spilled inputs
    int64_t storeBytes = 0; ///< written to DDR: spilled outputs
    double loadUs = 0;      ///< loadBytes at the profile's effective DDR bandwidth (hbm_perf's load cost)
    double storeUs = 0;     ///< storeBytes likewise (hbm_perf's store cost)
};
/// The BPU layers of an estimate; `t` (the profile the estimate was made with) prices the DDR bytes.
std::vector<BpuLayer> bpuLayers(const Graph& g, const AnalysisResult& r, const CostEstimate& e,
                                const TargetProfile& t);

} // namespace bpu
