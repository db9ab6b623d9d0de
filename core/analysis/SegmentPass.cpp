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

namespace {

/// Union-find over the nodes off the CPU connected by run-time tensors; sets each node's segment (-1 off the
/// BPU) and returns the number of segments.
int assignSegments(const Graph& g, const AnalysisIndex& ix, std::vector<NodeAnalysis>& nodes) {
    const OpTable& ops = ix.ops();
    auto offCpu = [&](uint32_t n) {
        return nodes[n].placement != Placement::CPU;
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
    for (auto& a : nodes)
        a.segment = -1;
    for (NodeId id : g.topoOrder) {
        if (nodes[id.value].placement != Placement::BPU)
            continue;
        int& seg = segmentOfRoot[uf.find(id.value)];
        if (seg < 0)
            seg = segments++;
        nodes[id.value].segment = seg;
    }
    // Folded nodes inside a segment belong to it.
    for (NodeId id : g.topoOrder)
        if (nodes[id.value].placement == Placement::Folded)
            if (const int seg = segmentOfRoot[uf.find(id.value)]; seg >= 0)
                nodes[id.value].segment = seg;
    return segments;
}

bool movesDataOnly(OpClass c) {
    return c == OpClass::Transform || c == OpClass::Data;
}

} // namespace

void runSegments(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& nodes = c.r.nodes;
    const AnalysisIndex& ix = *c.ix;
    const OpTable& ops = ix.ops();
    int segments = assignSegments(g, ix, nodes);

    // A segment that only moves data (Unsqueeze, Reshape, Concat, Gather, ...) between CPU operators -
    // typical of shape and index handling inside a detector's post-processing - does not become a BPU
    // segment: running it there would cost two CPU<->BPU switches for no arithmetic. It stays on the CPU
    // with its neighbours. (One that reads a model input or holds any arithmetic stays on the BPU.)
    std::vector<uint8_t> dataOnly(static_cast<size_t>(segments), 1),
        fedByCpu(static_cast<size_t>(segments), 0);
    for (NodeId id : g.topoOrder) {
        const NodeAnalysis& a = nodes[id.value];
        if (a.segment < 0)
            continue;
        uint8_t& only = dataOnly[static_cast<size_t>(a.segment)];
        if (a.placement == Placement::BPU && (a.placementOverridden || !movesDataOnly(a.opClass)))
            only = 0;
        for (TensorId in : ops.inputs(id)) {
            if (!in.valid() || ix.hasValue[in.value])
                continue;
            const NodeId p = ops.producer[in.value];
            if (!p.valid())
                only = 0; // reads a model input
            else if (nodes[p.value].placement == Placement::CPU)
                fedByCpu[static_cast<size_t>(a.segment)] = 1;
        }
    }
    bool moved = false;
    for (NodeId id : g.topoOrder) {
        NodeAnalysis& a = nodes[id.value];
        if (a.segment < 0 || a.placement != Placement::BPU || !dataOnly[static_cast<size_t>(a.segment)] ||
            !fedByCpu[static_cast<size_t>(a.segment)])
            continue;
        a.placement = Placement::CPU;
        a.precision = Precision::Float;
        a.placementReason =
            "kept on the CPU with its neighbours: data movement only (" + g.node(id).opType +
            ") between CPU operators - as a BPU segment of its own it would cost two CPU<->BPU "
            "switches for no arithmetic";
        moved = true;
    }
    if (moved)
        segments = assignSegments(g, ix, nodes);
    c.r.summary.bpuSegments = segments;
}

} // namespace bpu
