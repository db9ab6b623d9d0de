// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace bpu {

/// Counts (elements, MACs, ops, bytes, cycles) of absurd but importable shapes can pass 2^63. They
/// saturate at kCountMax instead of wrapping to a negative number; a caller that needs to know compares
/// with kCountMax (NodeMetrics::saturated says so per node).
inline constexpr int64_t kCountMax = std::numeric_limits<int64_t>::max();

/// a + b for counts (>= 0): kCountMax if it would overflow.
constexpr int64_t satAdd(int64_t a, int64_t b) {
    int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return a < 0 && b < 0 ? std::numeric_limits<int64_t>::min() : kCountMax;
    return r;
}

/// a * b for counts: kCountMax (or its negative) if it would overflow.
constexpr int64_t satMul(int64_t a, int64_t b) {
    int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
        return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min() : kCountMax;
    return r;
}

/// a double (a scaled count, a byte budget from a profile) as int64: NaN is 0 and values beyond int64
/// clamp to its ends (a plain cast of those is undefined behaviour).
inline int64_t clampToInt64(double v) {
    if (std::isnan(v))
        return 0;
    if (v >= 9.2e18)
        return kCountMax;
    if (v <= -9.2e18)
        return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(v);
}

} // namespace bpu
