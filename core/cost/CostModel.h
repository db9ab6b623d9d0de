// SPDX-License-Identifier: MIT
#pragma once

#include "CostEstimate.h"
#include "core/analysis/AnalysisResult.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

namespace bpu {

/// Latency from the analysis, with every term a named profile parameter:
///
///   BPU layer (a fused group, or one unfused BPU node):
///     t = max(C, M) + (1 - load_compute_overlap) x min(C, M) + layer_fixed_cycles / bpu_clock_ghz
///     C = sum of the members' compute time (Roofline.h: padded MACs / (peak x efficiency), vector and
///         transform work / (elements per cycle x clock))
///     M = the layer's DDR bytes / (ddr_bandwidth_gbs x ddr_effective_fraction); feature maps resident in the
///         SRAM budget cost nothing, spilled ones pay both ways, weights load once per inference
///   CPU node:      (2 x MACs + ops) / cpu_gflops + bytes / cpu_bandwidth_gbs
///   Q/DQ pass:     elements / qdq_elements_per_us
///   CPU<->BPU switch: cpu_bpu_switch_us per segment transition (entering / leaving a BPU segment), charged
///                 to the node that waits for it
///   model:         + model_fixed_us
/// Per-image latency = total / batch; FPS = batch / total. Per node: a layer's time split over its members by
/// their compute + memory time (the head also carries the layer's fixed time), plus the Q/DQ passes and
/// switches charged to it; the nodes add up to the total less model_fixed_us.
class CostModel {
public:
    static CostEstimate estimate(const Graph& g, const AnalysisResult& r, const TargetProfile& t);
};

} // namespace bpu
