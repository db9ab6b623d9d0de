// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

#include <cstdint>

namespace bpu::layout {

/// A large made-up network for layout and rendering benchmarks and tests: alternating ResNet-style stages
/// (Conv-Relu chains with residual Adds and downsample shortcuts) and YOLOv8-style sections (SiLU convs, C2f
/// split/concat blocks, SPPF, an FPN neck whose laterals skip far back, and two-branch detect heads ending
/// in model outputs), chained until about `targetNodes` nodes. With `towers` > 1 that many such chains run
/// side by side from the one input and meet in a final Concat (a wide stress case for crossing reduction).
/// Deterministic for a given seed. Every tensor has a shape; nodes have no attributes (protos are null).
Graph makeSyntheticGraph(int targetNodes, uint32_t seed = 1, int towers = 1);

} // namespace bpu::layout
