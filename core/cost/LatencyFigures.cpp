// SPDX-License-Identifier: MIT
#include "LatencyFigures.h"

#include "CostModel.h"
#include "core/analysis/AnalysisResult.h"
#include "core/analysis/Roofline.h"

namespace bpu {

LatencyFigures latencyFigures(const CostEstimate& e) {
    LatencyFigures f;
    f.bpuMs = e.bpuMs;
    f.latencyMs = e.latencyMs;
    f.fps = e.fps;
    f.fps2 = e.fpsByThreads[1];
    f.batch = e.batch;
    return f;
}

std::vector<BpuLayer> bpuLayers(const Graph& g, const AnalysisResult& r, const CostEstimate& e,
                                const TargetProfile& t) {
    std::vector<BpuLayer> out;
    std::vector<bool> done(g.nodes.size(), false);
    // The same layers CostModel::estimate prices: a fused group is one layer, any other BPU node its own.
    for (NodeId id : g.topoOrder) {
        const NodeAnalysis& a = r.nodes[id.value];
        if (done[id.value] || a.placement != Placement::BPU || a.assumedFree)
            continue;
        BpuLayer layer;
        layer.segment = a.segment;
        layer.members = CostModel::layerMembers(r, id); // the layer CostModel prices, head first
        layer.head = layer.members.front();
        for (NodeId m : layer.members) {
            done[m.value] = true;
            const NodeAnalysis& ma = r.nodes[m.value];
            // Q/DQ passes and CPU<->BPU switches are cost rows of their own, so a member's latency is BPU time.
            layer.latencyUs += e.nodes[m.value].latencyUs;
            layer.computeUs += ma.computeUs;
            layer.storeBytes += ma.ddrStoreBytes;
            layer.loadBytes += ma.ddrBytes - ma.ddrStoreBytes;
        }
        // Priced once here, so the report's layer table and the vendor-shaped perf JSON print the same times.
        layer.loadUs = ddrUs(layer.loadBytes, t);
        layer.storeUs = ddrUs(layer.storeBytes, t);
        out.push_back(std::move(layer));
    }
    // BPU-side passes (an image input's conversion, a requantize between int8 and int16) run inside the
    // layer of the node they serve, as the compiler folds them, so the layers still add up to bpuUs.
    std::vector<int> layerOf(g.nodes.size(), -1);
    for (size_t i = 0; i < out.size(); ++i)
        for (NodeId m : out[i].members)
            layerOf[m.value] = int(i);
    for (const CostRow& row : e.rows) {
        if (!row.onBpu || out.empty())
            continue;
        const int li = row.node.valid() ? layerOf[row.node.value] : -1;
        out[li >= 0 ? size_t(li) : 0].latencyUs += row.us;
    }
    return out;
}

} // namespace bpu
