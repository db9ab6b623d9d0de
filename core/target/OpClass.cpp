// SPDX-License-Identifier: MIT
#include "OpClass.h"

#include <iterator>

namespace bpu {

namespace {
struct Named {
    OpClass c;
    const char* name;
};
constexpr Named kNames[] = {
    {OpClass::Conv, "conv"},
    {OpClass::Matmul, "matmul"},
    {OpClass::Elementwise, "elementwise"},
    {OpClass::Lut, "lut"},
    {OpClass::Pool, "pool"},
    {OpClass::Reduce, "reduce"},
    {OpClass::Transform, "transform"},
    {OpClass::Data, "data"},
    {OpClass::Sample, "sample"},
    {OpClass::Norm, "norm"},
    {OpClass::Softmax, "softmax"},
    {OpClass::Folded, "folded"},
    {OpClass::Qdq, "qdq"},
    {OpClass::Cpu, "cpu"},
};
} // namespace

const char* opClassName(OpClass c) {
    for (const auto& n : kNames)
        if (n.c == c)
            return n.name;
    return "unknown";
}

std::optional<OpClass> parseOpClass(std::string_view s) {
    for (const auto& n : kNames)
        if (s == n.name)
            return n.c;
    return std::nullopt;
}

} // namespace bpu
