// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace bpu {

class Graph;
struct AnalysisResult;

/// The most activation bytes the BPU part holds at once (issue 64, the perf JSON's `min memory requirement`
/// beside the weights): every feature map a BPU layer writes (a fused group's inner tensors are never
/// materialised; Q/DQ aliases share their root's buffer; folded constants are weights) and every model input
/// the BPU reads, each live from its producer's topological step to its last reader's (the lifetime pass'
/// liveSteps), at its padded size; the peak over the steps of their sum. Where a buffer sits (SRAM or DDR)
/// does not matter here: the runtime must allocate every one that is live.
int64_t peakLiveActivationBytes(const Graph& g, const AnalysisResult& r);

/// The weight bytes the BPU part loads (each BPU node's, at its precision, padded), as the traffic pass
/// charges them.
int64_t bpuWeightBytes(const Graph& g, const AnalysisResult& r);

} // namespace bpu
