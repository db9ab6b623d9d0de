// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisFwd.h"
#include "core/model/Node.h"
#include "core/target/TargetProfile.h"

#include <string>
#include <vector>

namespace bpu {

class Graph;

/// Time the BPU's compute units need for one node, in microseconds, from padded work and the profile:
///   conv:   padded MACs / (peak MAC/s x dense_conv_efficiency), group_conv_efficiency for a depthwise conv
///           (issue 62: a grouped conv with 1 < group < C_in is priced per MAC like a dense one; the
///           depthwise figure sits at its bound, unidentified, and is too weak a rate to lend it)
///   matmul: padded MACs / (peak MAC/s x matmul_efficiency), or matmul_act_efficiency for two activations
///   softmax: padded elements x softmax_vector_passes / (vector_elements_per_cycle x clock)
///   vector work (elementwise, LUT, pool, reduce, norm, softmax): padded ops / (vector_elements_per_cycle x
///   clock) transforms and data movement: padded output elements / (transform_elements_per_cycle x clock)
/// int16 divides the throughput by int16_throughput_factor.
double bpuComputeUs(const NodeAnalysis& a, bool depthwise, int64_t movedElements, const TargetProfile& t);

/// What bounds a BPU node's compute, as bpuComputeUs uses it: the work it counts and the rate the profile
/// gives that work, with the formula and its parameters named (the inspector prints them).
struct ComputeRate {
    enum class Work { PaddedMacs, PaddedOps, MovedElements };
    Work work = Work::PaddedOps;
    const char* workName = "";       ///< "padded MACs", "padded ops", "padded output elements"
    double perSecond = 0;            ///< work units per second
    std::string formula;             ///< "padded MACs / (peak_int8_tops / 2 x dense_conv_efficiency)"
    std::vector<const char*> params; ///< the profile keys the rate reads
};
ComputeRate bpuComputeRate(const NodeAnalysis& a, bool depthwise, const TargetProfile& t);
/// A depthwise conv: one input channel per group (group == C_in > 1); group_conv_efficiency applies to it
/// alone.
bool isDepthwise(int64_t groups, int64_t inputChannels);
/// Node `n` is a Conv/ConvTranspose whose input's channel count is known and equal to its group.
bool isDepthwiseConv(const Graph& g, const Node& n);
/// Time to move `bytes` over DDR at the effective bandwidth (ddr_bandwidth_gbs x ddr_effective_fraction).
double ddrUs(int64_t bytes, const TargetProfile& t);

} // namespace bpu
