// SPDX-License-Identifier: MIT
#pragma once

#include "CostEstimate.h"
#include "core/analysis/AnalysisResult.h"
#include "core/deploy/DeploySettings.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

namespace bpu {

/// The latency that belongs to no single node, as rows (CostModel.h has the formulas): the BPU's input
/// conversion of image inputs, the CPU's quantize/dequantize passes, int8<->int16 requantizes, CPU<->BPU
/// transitions and the runtime's per-inference overhead. Adds each row to `e.rows` and its time to the
/// matching total (bpuUs, qdqUs, transitionUs, runtimeUs).
void addCostRows(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                 const DeploySettings& deploy, CostEstimate& e);

/// Bytes the runtime hands over per inference under `deploy`: each input as the runtime receives it (an nv12
/// image is H x W x 1.5 bytes, a featuremap its elements at the BPU precision) and each output as the BPU
/// writes it (a conv's int32 accumulator when it ends the model: quantized_conv_output_bytes).
int64_t runtimeIoBytes(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                       const DeploySettings& deploy);

} // namespace bpu
