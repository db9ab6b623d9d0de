// SPDX-License-Identifier: MIT
#include "FindingUtil.h"

#include <cstdio>

#include <algorithm>

namespace bpu {

Severity severityByShare(const AnalysisContext& c, double part, double whole) {
    return severityForShare(whole > 0 ? part / whole : 0, c.target.severityHighShare.value,
                            c.target.severityMediumShare.value);
}

double rooflineUs(const AnalysisContext& c, NodeId id) {
    const NodeAnalysis& a = c.r.nodes[id.value];
    if (a.placement != Placement::BPU || a.assumedFree)
        return 0;
    const FusedGroup* grp = c.r.group(a.fusionGroup);
    const bool layerHead = !grp || !grp->fused || grp->nodes.front() == id;
    return std::max(a.computeUs, a.memoryUs) + (layerHead ? c.target.layerFixedUs() : 0);
}

double bpuRooflineUs(const AnalysisContext& c) {
    double us = 0;
    for (size_t i = 0; i < c.r.nodes.size(); ++i)
        us += rooflineUs(c, NodeId{static_cast<uint32_t>(i)});
    return us;
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
