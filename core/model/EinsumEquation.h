// SPDX-License-Identifier: MIT
#pragma once

#include "Graph.h"

#include <cstdint>
#include <string>

namespace bpu {

/// What an Einsum becomes when the toolchain lowers it (MatMul / Transpose / Reshape / ReduceSum / Mul), from
/// its equation and its operands' ranks. Only an equation that cannot be lowered stays an Einsum (on the
/// CPU).
struct EinsumLowering {
    enum class Kind {
        None,      ///< not lowerable: `why` says what stops it
        MatMul,    ///< two operands with contracted indices: a (batched) MatMul between transposes/reshapes
        Mul,       ///< two operands, nothing contracted: a broadcast elementwise product
        Transpose, ///< one operand, every index kept: a permutation
        Reduce,    ///< one operand, some indices summed: ReduceSum (after a transpose)
    };
    Kind kind = Kind::None;
    std::string equation; ///< as written in the node
    std::string why;      ///< for Kind::None
    /// Multiply-accumulates (MatMul: the product of every index's extent), or 0 when an extent is unknown.
    int64_t macs = 0;
    int64_t contracted = 1; ///< K: the product of the summed indices' extents (1 if unknown or none)

    /// The op type the lowering places it as ("MatMul", "Mul", "Transpose", "ReduceSum"), or "" for None.
    const char* loweredOp() const;
};

/// Lowers `n` (an Einsum node); uses the operands' ranks for "..." and their dims for the MAC count.
EinsumLowering lowerEinsum(const Graph& g, const Node& n);

} // namespace bpu
