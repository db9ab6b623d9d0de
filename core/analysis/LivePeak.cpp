// SPDX-License-Identifier: MIT
#include "LivePeak.h"

#include "AnalysisResult.h"
#include "core/model/Graph.h"

#include <algorithm>

namespace bpu {

namespace {

/// Produced and read inside one fused group only, and no model output: the layer never writes it out.
bool insideGroup(const AnalysisResult& r, const Tensor& t) {
    const GroupId gid = r.nodes[t.producer.value].fusionGroup;
    if (!gid.valid() || t.isGraphOutput || t.consumers.empty())
        return false;
    return std::all_of(t.consumers.begin(), t.consumers.end(),
                       [&](NodeId c) { return r.nodes[c.value].fusionGroup == gid; });
}

bool onBpu(const AnalysisResult& r, NodeId n) {
    return r.nodes[n.value].placement == Placement::BPU;
}

} // namespace

int64_t peakLiveActivationBytes(const Graph& g, const AnalysisResult& r) {
    const auto& pos = g.topoIndex();
    const size_t steps = g.nodes.size();
    if (steps == 0 || r.tensors.size() < g.tensors.size())
        return 0;
    // +bytes at the first step a buffer is live, -bytes after its last.
    std::vector<int64_t> delta(steps + 1, 0);
    auto live = [&](size_t from, size_t to, int64_t bytes) {
        delta[std::min(from, steps)] += bytes;
        delta[std::min(to + 1, steps)] -= bytes;
    };
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const Tensor& t = g.tensors[i];
        const int64_t bytes = r.tensors[i].paddedBytes > 0 ? r.tensors[i].paddedBytes : r.tensors[i].bytes;
        if (bytes <= 0 || t.isInitializer)
            continue;
        if (t.isGraphInput) {
            size_t last = 0;
            bool read = false;
            for (NodeId c : t.consumers)
                if (onBpu(r, c)) {
                    read = true;
                    last = std::max<size_t>(last, pos[c.value]);
                }
            if (read)
                live(0, last, bytes);
            continue;
        }
        if (!t.producer.valid() || !onBpu(r, t.producer) || insideGroup(r, t))
            continue;
        const size_t from = pos[t.producer.value];
        live(from, from + size_t(std::max(0, r.tensors[i].liveSteps)), bytes);
    }
    int64_t now = 0, peak = 0;
    for (size_t s = 0; s < steps; ++s) {
        now += delta[s];
        peak = std::max(peak, now);
    }
    return peak;
}

int64_t bpuWeightBytes(const Graph& g, const AnalysisResult& r) {
    int64_t total = 0;
    for (const Node& n : g.nodes)
        if (onBpu(r, n.id))
            total += r.nodes[n.id.value].weightBytes;
    return total;
}

} // namespace bpu
