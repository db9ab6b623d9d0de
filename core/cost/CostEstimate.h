// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace bpu {

/// Latency of one node (a fused group's time is attributed to its members by their share of its work, so the
/// members add up to the layer). Node latencies add up to the model's latency less the per-inference fixed
/// cost (model_fixed_us), which belongs to no node.
struct NodeCost {
    double latencyUs = 0;
    double computeUs = 0; ///< TAE/VPU/TRANS time (BPU) or arithmetic time (CPU)
    double memoryUs = 0;  ///< DDR time not hidden by the LOAD/TAE overlap (BPU) or memory time (CPU)
    double fixedUs = 0;   ///< per-layer fixed cost
    double qdqUs = 0;     ///< quantize/dequantize passes charged to this node
    double switchUs = 0;  ///< CPU<->BPU switches this node waits for (it is the first to run after one)
    double share = 0;     ///< latencyUs / model latency
};

/// The model's estimated latency for one inference of `batch` images, and where it goes.
struct CostEstimate {
    std::vector<NodeCost> nodes; ///< by NodeId
    int batch = 1;
    double bpuUs = 0, cpuUs = 0, qdqUs = 0, switchUs = 0, fixedUs = 0;
    double totalUs = 0;    ///< one inference of the whole batch (1 thread)
    double latencyMs = 0;  ///< per inference
    double fps = 0;        ///< images per second = batch / latency
    double perImageMs = 0; ///< latency / batch
};

} // namespace bpu
