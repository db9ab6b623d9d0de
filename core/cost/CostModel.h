// SPDX-License-Identifier: MIT
#pragma once

#include "CostEstimate.h"
#include "core/analysis/AnalysisFwd.h"
#include "core/deploy/DeploySettings.h"
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
///   BPU rows:   image input conversion: H x W x C x input_conversion_passes / (vector rate);
///               int8<->int16 requantize: a layer's fixed time + elements x requantize_vector_passes / rate
///   CPU node:   (2 x MACs + ops) / cpu_gflops + bytes / cpu_bandwidth_gbs
///   Q/DQ pass:  elements / qdq_elements_per_us (only the passes the deployment leaves on the CPU)
///   transition: cpu_bpu_switch_us per switch of units (entering / leaving a BPU segment: the transition
///               pass), a row next to the node that waits for it
///   runtime:    runtime_fixed_us + I/O bytes / cpu_bandwidth_gbs (the runtime touches every input and
///               output byte once on the CPU side)
/// bpu_ms = BPU layers + BPU rows (the static estimate); latency_ms = everything (one thread, the board);
/// two threads: period = max(B + (1 - thread_overlap) x H, (B + H) / 2) with B the BPU time and H the rest.
/// Per-image latency = total / batch; FPS = batch / total. Per node: a layer's time split over its members by
/// their compute + memory time (the head also carries the layer's fixed time); the nodes plus the rows add up
/// to the total.
class CostModel {
public:
    static CostEstimate estimate(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                                 const DeploySettings& deploy);
    // The pieces estimate() is made of, for what explains it (CostTerms.h).
    /// A BPU layer's pipelined time: max(C, M) + (1 - load_compute_overlap) x min(C, M).
    static double pipelinedUs(double computeUs, double memoryUs, const TargetProfile& t);
    /// The members of the BPU layer `id` runs in: its fused group (head first), or itself.
    static std::vector<NodeId> layerMembers(const AnalysisResult& r, NodeId id);
    /// The node a Q/DQ pass is charged to: the explicit Q/DQ node, else the node next to the boundary.
    static NodeId qdqOwner(const Graph& g, const QdqPass& p);
    /// A CPU-placed node the cost model times (Q/DQ nodes are timed as passes instead).
    static bool runsOnCpu(const Node& n);
};

/// Two threads on one BPU core: the time between finished inferences (CostModel.h).
double twoThreadPeriodUs(double bpuUs, double otherUs, double threadOverlap);

} // namespace bpu
