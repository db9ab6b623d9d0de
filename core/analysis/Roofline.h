// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisTypes.h"
#include "core/target/TargetProfile.h"

namespace bpu {

/// Time the BPU's compute units need for one node, in microseconds, from padded work and the profile:
///   conv:   padded MACs / (peak MAC/s x dense_conv_efficiency | group_conv_efficiency)
///   matmul: padded MACs / (peak MAC/s x matmul_efficiency), or matmul_act_efficiency for two activations
///   softmax: padded elements x softmax_vector_passes / (vector_elements_per_cycle x clock)
///   vector work (elementwise, LUT, pool, reduce, norm, softmax): padded ops / (vector_elements_per_cycle x
///   clock) transforms and data movement: padded output elements / (transform_elements_per_cycle x clock)
/// int16 divides the throughput by int16_throughput_factor.
double bpuComputeUs(const NodeAnalysis& a, bool grouped, int64_t movedElements, const TargetProfile& t);
/// Time to move `bytes` over DDR at the effective bandwidth (ddr_bandwidth_gbs x ddr_effective_fraction).
double ddrUs(int64_t bytes, const TargetProfile& t);

} // namespace bpu
