// SPDX-License-Identifier: MIT
#include "OpCategory.h"

#include <algorithm>
#include <iterator>

namespace bpu::ui {

namespace {
constexpr std::string_view kConvLike[] = {"Conv",          "ConvTranspose", "ConvInteger",
                                          "QLinearConv",   "MatMul",        "MatMulInteger",
                                          "QLinearMatMul", "Gemm",          "Einsum"};
constexpr std::string_view kElementwise[] = {"Add",
                                             "Sub",
                                             "Mul",
                                             "Div",
                                             "Pow",
                                             "Sqrt",
                                             "Reciprocal",
                                             "Exp",
                                             "Log",
                                             "Abs",
                                             "Neg",
                                             "Floor",
                                             "Ceil",
                                             "Round",
                                             "Relu",
                                             "LeakyRelu",
                                             "PRelu",
                                             "Elu",
                                             "Selu",
                                             "Celu",
                                             "Sigmoid",
                                             "HardSigmoid",
                                             "HardSwish",
                                             "Tanh",
                                             "Softplus",
                                             "Softsign",
                                             "Gelu",
                                             "Erf",
                                             "Mish",
                                             "Clip",
                                             "Max",
                                             "Min",
                                             "Mean",
                                             "Sum",
                                             "Where",
                                             "Equal",
                                             "Less",
                                             "LessOrEqual",
                                             "Greater",
                                             "GreaterOrEqual",
                                             "Not",
                                             "And",
                                             "Or",
                                             "Xor",
                                             "Sign",
                                             "Cast",
                                             "QuantizeLinear",
                                             "DequantizeLinear",
                                             "BatchNormalization",
                                             "Sin",
                                             "Cos",
                                             "Mod"};
constexpr std::string_view kDataMovement[] = {
    "Reshape",        "Transpose",    "Concat",    "Split",           "Slice",   "Gather",    "GatherND",
    "GatherElements", "Scatter",      "ScatterND", "ScatterElements", "Squeeze", "Unsqueeze", "Flatten",
    "Resize",         "Upsample",     "Pad",       "Expand",          "Tile",    "Identity",  "Shape",
    "DepthToSpace",   "SpaceToDepth", "Constant",  "ConstantOfShape", "Range",   "Size"};

template <size_t N> bool contains(const std::string_view (&set)[N], std::string_view op) {
    return std::find(std::begin(set), std::end(set), op) != std::end(set);
}
} // namespace

OpCategory opCategory(std::string_view opType) {
    if (contains(kConvLike, opType))
        return OpCategory::ConvLike;
    if (contains(kElementwise, opType))
        return OpCategory::Elementwise;
    if (contains(kDataMovement, opType))
        return OpCategory::DataMovement;
    return OpCategory::Other;
}

QString opCategoryName(OpCategory c) {
    switch (c) {
    case OpCategory::ConvLike:
        return QStringLiteral("Conv / MatMul");
    case OpCategory::Elementwise:
        return QStringLiteral("Elementwise");
    case OpCategory::DataMovement:
        return QStringLiteral("Data movement");
    case OpCategory::Other:
        break;
    }
    return QStringLiteral("Other");
}

} // namespace bpu::ui
