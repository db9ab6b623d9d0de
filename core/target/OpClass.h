// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

namespace bpu {

/// The operator table's class of an op type (resources/targets/*.json "class"): what kind of work the BPU
/// does for it, which decides its compute rate (Roofline.h), whether it keeps a conv layout (G4.2) and
/// whether it is a layer (post-processing, segments). Compared in every pass's inner loop, hence an enum.
enum class OpClass : unsigned char {
    Unknown, ///< not in the operator table
    Conv,
    Matmul,
    Elementwise,
    Lut,
    Pool,
    Reduce,
    Transform,
    Data,
    Sample, ///< GridSample: vector work per output element
    Norm,
    Softmax,
    Folded,
    Qdq,
    Cpu,
};

/// The profile's spelling: "conv", "matmul", ...; "unknown" for Unknown.
const char* opClassName(OpClass c);
/// A profile's "class" value; nullopt for anything else (including "unknown", which no row may claim).
std::optional<OpClass> parseOpClass(std::string_view s);

} // namespace bpu
