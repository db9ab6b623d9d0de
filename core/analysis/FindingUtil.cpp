// SPDX-License-Identifier: MIT
#include "FindingUtil.h"

#include <cstdio>

namespace bpu {

std::string severityByShare(double part, double whole) {
    double share = whole > 0 ? part / whole : 0;
    return share >= 0.10 ? "high" : share >= 0.02 ? "medium" : "low";
}

std::string dimsText(const std::vector<int64_t>& dims) {
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i)
        s += (i ? "x" : "") + std::to_string(dims[i]);
    return s.empty() ? "scalar" : s;
}

std::string bytesText(int64_t b) {
    char buf[32];
    if (b >= 1 << 20)
        std::snprintf(buf, sizeof buf, "%.2f MiB", double(b) / (1 << 20));
    else if (b >= 1 << 10)
        std::snprintf(buf, sizeof buf, "%.1f KiB", double(b) / (1 << 10));
    else
        std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(b));
    return buf;
}

} // namespace bpu
