// SPDX-License-Identifier: MIT
#include "ScopeFigures.h"

#include "core/analysis/AnalysisResult.h"
#include "core/cost/CostEstimate.h"
#include "core/model/Graph.h"

namespace bpu {

Placement ScopeFigures::worstPlacement() const {
    return cpuNodes > 0 ? Placement::CPU : bpuNodes > 0 ? Placement::BPU : Placement::Folded;
}

std::vector<NodeFigures> nodeFigures(const Graph& graph, const AnalysisResult& analysis,
                                     const CostEstimate& cost) {
    std::vector<NodeFigures> out(graph.nodes.size());
    for (const Node& n : graph.nodes) {
        NodeFigures& f = out[n.id.value];
        if (n.id.value < cost.nodes.size()) {
            f.latencyUs = cost.nodes[n.id.value].latencyUs;
            f.share = cost.nodes[n.id.value].share;
        }
        if (n.id.value < analysis.nodes.size())
            f.placement = analysis.nodes[n.id.value].placement;
        // The padding colour mode's rule: only outputs the BPU alignment applies to count.
        for (TensorId t : n.outputs)
            if (t.valid() && t.value < analysis.tensors.size() && analysis.tensors[t.value].padded.applies) {
                f.wasteBytes += analysis.tensors[t.value].padded.wasteBytes;
                f.paddedBytes += analysis.tensors[t.value].paddedBytes;
            }
    }
    return out;
}

std::vector<ScopeFigures> scopeFigures(const layout::ScopeTree& tree, const std::vector<NodeFigures>& nodes) {
    const auto& scopes = tree.scopes();
    std::vector<ScopeFigures> out(scopes.size());
    for (size_t n = 0; n < tree.nodeCount() && n < nodes.size(); ++n) {
        const NodeFigures& f = nodes[n];
        ScopeFigures& s = out[size_t(tree.scopeOf(NodeId(static_cast<uint32_t>(n))))];
        s.latencyUs += f.latencyUs;
        s.share += f.share;
        ++s.nodes;
        ++(f.placement == Placement::CPU   ? s.cpuNodes
           : f.placement == Placement::BPU ? s.bpuNodes
                                           : s.foldedNodes);
        s.wasteBytes += f.wasteBytes;
        s.paddedBytes += f.paddedBytes;
        if (f.latencyUs > s.hottestUs) {
            s.hottestUs = f.latencyUs;
            s.hottest = NodeId(static_cast<uint32_t>(n));
        }
    }
    // A child scope is created after its parent (ScopeTree::build), so walking the ids down settles every
    // child before its parent reads it.
    for (size_t i = scopes.size(); i-- > 1;) {
        const ScopeFigures& c = out[i];
        ScopeFigures& p = out[size_t(scopes[i].parent)];
        p.latencyUs += c.latencyUs;
        p.share += c.share;
        p.nodes += c.nodes;
        p.bpuNodes += c.bpuNodes;
        p.cpuNodes += c.cpuNodes;
        p.foldedNodes += c.foldedNodes;
        p.wasteBytes += c.wasteBytes;
        p.paddedBytes += c.paddedBytes;
        if (c.hottestUs > p.hottestUs) {
            p.hottestUs = c.hottestUs;
            p.hottest = c.hottest;
        }
    }
    return out;
}

} // namespace bpu
