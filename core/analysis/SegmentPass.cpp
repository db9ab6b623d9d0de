// SPDX-License-Identifier: MIT
// G1.2: BPU segments. Nodes that run on (or fold into) the BPU and are connected by run-time tensors form
// one segment; a CPU node between them splits the graph, as hb_compile's "Subgraph" column shows.
#include "Passes.h"

#include <numeric>
#include <unordered_map>

namespace bpu {

namespace {
struct UnionFind {
    std::vector<uint32_t> parent;
    explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0u); }
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
    UnionFind uf(g.nodes.size());
    auto offCpu = [&](NodeId id) { return nodes[id.value].placement != Placement::CPU; };
    for (const auto& t : g.tensors) {
        if (!t.producer.valid() || t.value || !offCpu(t.producer))
            continue;
        for (NodeId cns : t.consumers)
            if (offCpu(cns))
                uf.unite(t.producer.value, cns.value);
    }
    std::unordered_map<uint32_t, int> segmentOfRoot;
    for (NodeId id : g.topoOrder) {
        if (nodes[id.value].placement != Placement::BPU)
            continue;
        uint32_t root = uf.find(id.value);
        auto [it, inserted] = segmentOfRoot.emplace(root, static_cast<int>(segmentOfRoot.size()));
        nodes[id.value].segment = it->second;
    }
    // Folded nodes inside a segment belong to it.
    for (NodeId id : g.topoOrder)
        if (nodes[id.value].placement == Placement::Folded)
            if (auto it = segmentOfRoot.find(uf.find(id.value)); it != segmentOfRoot.end())
                nodes[id.value].segment = it->second;
    c.r.summary.bpuSegments = static_cast<int>(segmentOfRoot.size());
}

} // namespace bpu
