// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisIndex.h"
#include "core/model/Graph.h"

#include <cstdint>
#include <vector>

namespace bpu {

/// How the explicit QuantizeLinear / DequantizeLinear nodes of a QDQ (QAT) export annotate the graph.
///
/// A fake-quant exports as QuantizeLinear -> DequantizeLinear, sometimes with integer-only ops between them:
/// torch writes a reduced quant range as QuantizeLinear -> Clip(0, 127) -> DequantizeLinear. Those ops are
/// members of the annotation, not layers. Ops that pass their input's scale through (pooling, Relu, the
/// layout and data-movement ops, Concat of quantized inputs, Resize nearest, GlobalAveragePool whose scale
/// comes from its own Q/DQ or its consumer's) carry the quantization across: the toolchain folds the pairs
/// around them, so an op reading a DequantizeLinear through them is quantized, as is one whose output
/// reaches a QuantizeLinear through them.
struct QdqAnnotations {
    bool qdqFormat = false;         ///< some activation DequantizeLinear is fed by a QuantizeLinear
    std::vector<uint8_t> member;    ///< by node: an integer op between a QuantizeLinear and its DQ
    std::vector<uint8_t> quantized; ///< by tensor: carries a quantization scale from a Q/DQ above it
    std::vector<uint8_t>
        annotated; ///< by tensor: reaches a QuantizeLinear below it through scale-passing ops

    /// Computes the above for `g`; constants (weights and their Q/DQ) are not activations and never count.
    static QdqAnnotations find(const Graph& g, const AnalysisIndex& ix);
};

/// Ops that keep their input's quantization scale (the toolchain folds Q/DQ pairs across them).
bool passesScale(const Node& n);

} // namespace bpu
