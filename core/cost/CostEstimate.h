// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Ids.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace bpu {

/// Latency of one node (a fused group's time is attributed to its members by their share of its work, so the
/// members add up to the layer). Passes over whole tensors (quantize, dequantize, requantize, the input
/// conversion), CPU<->BPU transitions and the runtime's per-inference overhead are CostRows of their own:
/// node latencies plus the rows add up to the model's latency.
struct NodeCost {
    double latencyUs = 0;
    double computeUs = 0; ///< TAE/VPU/TRANS time (BPU) or arithmetic time (CPU)
    double memoryUs = 0;  ///< DDR time not hidden by the LOAD/TAE overlap (BPU) or memory time (CPU)
    double fixedUs = 0;   ///< per-layer fixed cost
    double share = 0;     ///< latencyUs / model latency
};

/// What a CostRow stands for.
enum class CostRowKind {
    InputConversion, ///< BPU: an image input's colour conversion and normalisation (nv12 -> yuv444,
                     ///< mean/scale)
    Quantize,        ///< CPU: float -> int8 over a whole tensor (G1.1)
    Dequantize,      ///< CPU: int8 -> float over a whole tensor (G1.1)
    Requantize,      ///< BPU: int8 <-> int16 at a precision boundary
    Transition,      ///< a CPU<->BPU switch (G1.2)
    RuntimeOverhead, ///< the runtime's per-inference work on the CPU side (hrt_model_exec measures it)
};
const char* costRowKindName(CostRowKind k); ///< "input conversion", "quantize", ... for tables
const char* costRowKindKey(CostRowKind k);  ///< "input_conversion", "quantize", ... for JSON

/// One line of the latency that belongs to no single node.
struct CostRow {
    CostRowKind kind = CostRowKind::RuntimeOverhead;
    std::string label; ///< e.g. "dequantize '/model.22/Concat_output_0' (model output)"
    TensorId tensor;   ///< the tensor it passes over or hands across; invalid for the overhead
    NodeId node;       ///< the node to select for it (explicit Q/DQ node, or the one next to the tensor)
    int64_t elements = 0;
    double us = 0;
    bool onBpu = false;  ///< part of the BPU's time (bpu_ms): input conversion, requantize
    std::string formula; ///< how `us` was computed, with the profile parameter names and values
};

/// The model's estimated latency for one inference of `batch` images, and where it goes. Three figures a
/// Horizon engineer can compare with the vendor's tools:
///   bpuMs     - the BPU's time alone, as the compiler's static estimate (hbm_perf) reports it;
///   latencyMs - one-thread latency as `hrt_model_exec perf` measures it under the deployment settings:
///               BPU time + runtime overhead + CPU operators, Q/DQ passes and transitions that remain;
///   fpsByThreads - throughput with one and two inference threads on the one BPU core.
struct CostEstimate {
    std::vector<NodeCost> nodes; ///< by NodeId
    std::vector<CostRow> rows;   ///< passes, transitions and the overhead, in the order they were found
    int batch = 1;
    double bpuUs = 0;                     ///< BPU layers plus the BPU rows (input conversion, requantize)
    double cpuUs = 0;                     ///< CPU operators
    double qdqUs = 0;                     ///< quantize/dequantize passes on the CPU
    double transitionUs = 0;              ///< CPU<->BPU transitions
    double runtimeUs = 0;                 ///< the runtime's per-inference overhead
    int64_t runtimeIoBytes = 0;           ///< input and output bytes the runtime hands over per inference
    double totalUs = 0;                   ///< one inference of the whole batch (1 thread)
    double bpuMs = 0;                     ///< bpuUs / 1000: the static-estimate figure
    double latencyMs = 0;                 ///< per inference, one thread: the board figure
    double fps = 0;                       ///< images per second with one thread = batch / latency
    double perImageMs = 0;                ///< latency / batch
    std::array<double, 2> fpsByThreads{}; ///< [0] one thread, [1] two threads
};

} // namespace bpu
