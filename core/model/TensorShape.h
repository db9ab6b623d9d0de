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
    /// Empty while no dim has a name (nearly every shape: a 100k-node model holds hundreds of thousands, and
    /// a vector of empty strings per shape was an allocation and ~130 bytes each); once one has, parallel to
    /// dims with an empty string where the dim is numeric or anonymous. Read and write through symbol().
    std::vector<std::string> symbols;

    TensorShape() = default;
    explicit TensorShape(std::vector<int64_t> d);

    size_t rank() const { return dims.size(); }
    /// The model's name for dim i ("batch"); empty where it has none.
    const std::string& symbol(size_t i) const;
    void setSymbol(size_t i, std::string name);
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
