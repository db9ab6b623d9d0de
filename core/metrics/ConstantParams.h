// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

#include <vector>

namespace bpu {

/// The outputs of Constant nodes that hold parameters: paddle2onnx (and some other exporters) keep every
/// weight in a `Constant` node instead of an initializer. A Constant's output (of two or more elements) is a
/// parameter when a run-time node reads it - directly or through Identity, Q/DQ, Cast and layout ops over
/// constants - as a weight, bias or scale:
///   - any input but the data of Conv / ConvTranspose / BatchNormalization / Instance-, Layer- and
///     GroupNormalization / LSTM / GRU, PRelu's slope, a constant operand of Gemm / MatMul;
///   - an operand of Add / Sub / Mul / Div after a layer (a Conv, ConvTranspose, Gemm or MatMul upstream
///   through
///     run-time data): a linear layer's bias, a decomposed LayerNorm's gamma and beta.
/// Not parameters: scalars (an op's immediate), arithmetic before the first layer (an in-graph input
/// normalisation's mean/std) or on shapes (anchor generators), and a known identity - all ones as a scale,
/// all zeros as a shift (torch writes GroupNorm as InstanceNormalization with such constants). Initializers
/// are counted as before (every one of them).
std::vector<TensorId> constantNodeParameters(const Graph& g);

} // namespace bpu
