// SPDX-License-Identifier: MIT
// G1.2: BPU segments. Nodes that run on (or fold into) the BPU and are connected by run-time tensors form
// one segment; a CPU node between them splits the graph, as hb_compile's "Subgraph" column shows.
#include "Passes.h"

#include <numeric>

namespace bpu {

namespace {
struct UnionFind {
    std::vector<uint32_t> parent;
    explicit UnionFind(size_t n)
        : parent(n) {
        std::iota(parent.begin(), parent.end(), 0u);
    }
    uint32_t find(uint32_t x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    }
    void unite(uint32_t a, uint32_t b) { parent[find(a)] = find(b); }
};
} // namespace

void runSegments(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& nodes = c.r.nodes;
    const AnalysisIndex& ix = *c.ix;
    const OpTable& ops = ix.ops();
    std::vector<Placement> place(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i)
        place[i] = nodes[i].placement;
    auto offCpu = [&](uint32_t n) {
        return place[n] != Placement::CPU;
    };
    UnionFind uf(g.nodes.size());
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const NodeId p = ops.producer[i];
        if (!p.valid() || ix.hasValue[i] || !offCpu(p.value))
            continue;
        for (NodeId cns : ops.consumers(TensorId{static_cast<uint32_t>(i)}))
            if (offCpu(cns.value))
                uf.unite(p.value, cns.value);
    }
    // Segment numbers in topological order of their first BPU node (a root's number, -1 until then).
    std::vector<int> segmentOfRoot(nodes.size(), -1);
    int segments = 0;
    for (NodeId id : g.topoOrder) {
        if (place[id.value] != Placement::BPU)
            continue;
        int& seg = segmentOfRoot[uf.find(id.value)];
        if (seg < 0)
            seg = segments++;
        nodes[id.value].segment = seg;
    }
    // Folded nodes inside a segment belong to it.
    for (NodeId id : g.topoOrder)
        if (place[id.value] == Placement::Folded)
            if (const int seg = segmentOfRoot[uf.find(id.value)]; seg >= 0)
                nodes[id.value].segment = seg;
    c.r.summary.bpuSegments = segments;
}

} // namespace bpu
