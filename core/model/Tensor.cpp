// SPDX-License-Identifier: MIT
#include "Tensor.h"

#include <limits>

namespace bpu {

std::optional<int64_t> Tensor::bytes() const {
    auto e = shape.elements();
    int64_t b = bytesPerElement(dtype);
    if (!e || b == 0)
        return std::nullopt;
    if (*e > std::numeric_limits<int64_t>::max() / b)
        return std::nullopt;
    return *e * b;
}

} // namespace bpu
