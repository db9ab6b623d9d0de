// SPDX-License-Identifier: MIT
#pragma once

#include "DataType.h"

#include <cstdint>
#include <vector>

namespace bpu {

/// The value of a small constant tensor (shape arithmetic, Reshape targets, Resize scales), kept so that
/// shape inference can see through Shape -> Gather -> Concat chains. Integers and floats are held in the
/// widest type of their kind; `dtype` remembers what the model declared.
struct ConstValue {
    DataType dtype = DataType::Int64;
    std::vector<int64_t> dims;
    std::vector<int64_t> ints;   ///< used when isIntegerType(dtype)
    std::vector<double> floats;  ///< used otherwise

    bool isInt() const { return isIntegerType(dtype); }
    size_t size() const { return isInt() ? ints.size() : floats.size(); }
    double at(size_t i) const { return isInt() ? double(ints[i]) : floats[i]; }
};

/// Constants bigger than this are not kept: shape arithmetic never needs them and weights must not be read.
inline constexpr int64_t kMaxConstElements = 4096;

} // namespace bpu
