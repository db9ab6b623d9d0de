// SPDX-License-Identifier: MIT
#include "LatencyFigures.h"

namespace bpu {

LatencyFigures latencyFigures(const CostEstimate& e) {
    LatencyFigures f;
    f.bpuMs = e.bpuUs / 1000.0;
    f.latencyMs = e.latencyMs;
    f.fps = e.fps;
    f.batch = e.batch;
    return f;
}

std::vector<BpuLayer> bpuLayers(const Graph& g, const AnalysisResult& r, const CostEstimate& e) {
    std::vector<BpuLayer> out;
    std::vector<bool> done(g.nodes.size(), false);
    // The same layers CostModel::estimate prices: a fused group is one layer, any other BPU node its own.
    for (NodeId id : g.topoOrder) {
        const NodeAnalysis& a = r.nodes[id.value];
        if (done[id.value] || a.placement != Placement::BPU || a.assumedFree)
            continue;
        BpuLayer layer;
        layer.head = id;
        layer.segment = a.segment;
        if (const FusedGroup* grp = r.group(a.fusionGroup)) {
            layer.members = grp->nodes;
            layer.head = grp->nodes.front();
        } else {
            layer.members = {id};
        }
        for (NodeId m : layer.members) {
            done[m.value] = true;
            const NodeAnalysis& ma = r.nodes[m.value];
            // The Q/DQ passes and CPU<->BPU switches charged to a member run outside the BPU.
            const NodeCost& c = e.nodes[m.value];
            layer.latencyUs += c.latencyUs - c.qdqUs - c.switchUs;
            layer.computeUs += ma.computeUs;
            layer.storeBytes += ma.ddrStoreBytes;
            layer.loadBytes += ma.ddrBytes - ma.ddrStoreBytes;
        }
        out.push_back(std::move(layer));
    }
    return out;
}

} // namespace bpu
