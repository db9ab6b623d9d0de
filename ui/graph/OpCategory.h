// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <string_view>

namespace bpu::ui {

/// A coarse display class of an operator, for the default graph coloring.
enum class OpCategory {
    ConvLike,     ///< Conv, ConvTranspose, MatMul, Gemm and their quantized forms: the MAC-heavy layers
    Elementwise,  ///< activations, arithmetic, comparisons, casts, (de)quantization, BatchNormalization
    DataMovement, ///< reshapes, transposes, concat/split/slice/gather, resize, pad, Identity, Constant
    Other,        ///< pooling, reductions, normalizations, softmax, control flow, unknown ops
};

OpCategory opCategory(std::string_view opType);
QString opCategoryName(OpCategory c);

} // namespace bpu::ui
