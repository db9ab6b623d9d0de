// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bpu {

/// A tensor's shape as far as it is known: the rank may be unknown, and each dim is either a number or
/// unknown (kUnknownDim, optionally with the symbol the model gave it, e.g. "batch").
struct TensorShape {
    static constexpr int64_t kUnknownDim = -1;

    bool rankKnown = false;
    std::vector<int64_t> dims;
    std::vector<std::string> symbols; ///< parallel to dims; empty string where the dim is numeric or anonymous

    TensorShape() = default;
    explicit TensorShape(std::vector<int64_t> d);

    size_t rank() const { return dims.size(); }
    bool fullyKnown() const;
    /// Element count when every dim is known and the product fits in int64; nullopt otherwise.
    std::optional<int64_t> elements() const;
    /// "1x3x224x224", "?" for unknown rank, "batchx3x?x?" with symbols; beyond 32 dims the first 16 and
    /// "x...(N dims)".
    std::string toString() const;
    bool operator==(const TensorShape& o) const { return rankKnown == o.rankKnown && dims == o.dims; }
};

/// Product of dims with overflow detection; nullopt if any dim is negative/unknown or the product overflows.
std::optional<int64_t> checkedProduct(const std::vector<int64_t>& dims);

} // namespace bpu
