// SPDX-License-Identifier: MIT
#include "DrawnGroups.h"

#include "AnalysisResult.h"
#include "core/model/Graph.h"

namespace bpu {

std::vector<int> drawnGroupOf(const Graph& g, const AnalysisResult& r) {
    std::vector<int> out(g.nodes.size(), -1);
    for (const FusedGroup& grp : r.groups)
        if (grp.fused)
            for (NodeId n : grp.nodes)
                out[n.value] = static_cast<int>(grp.id.value);
    for (NodeId id : g.topoOrder) {
        const NodeAnalysis& a = r.nodes[id.value];
        if (out[id.value] >= 0 || a.placement != Placement::Folded || a.opClass != OpClass::Folded)
            continue;
        const Node& n = g.node(id);
        if (n.inputs.empty() || !n.inputs[0].valid())
            continue;
        const Tensor& in = g.tensor(n.inputs[0]);
        if (!in.producer.valid() || in.consumers.size() != 1 || in.isGraphOutput)
            continue;
        out[id.value] = out[in.producer.value];
    }
    return out;
}

} // namespace bpu
