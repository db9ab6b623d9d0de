// SPDX-License-Identifier: MIT
#include "GraphLayoutInput.h"

#include <algorithm>
#include <unordered_map>

namespace bpu::layout {

Size defaultBoxSize(const std::vector<NodeId>& members) {
    return members.size() > 1 ? Size{184, 60} : Size{168, 48};
}

GraphLayoutInput buildGraphLayoutInput(const Graph& graph, const std::vector<int>& groupOf,
                                       const BoxSizer& sizer) {
    GraphLayoutInput out;
    const size_t n = graph.nodes.size();
    out.boxOfNode.assign(n, -1);
    std::unordered_map<int, int> boxOfGroup;
    for (NodeId id : graph.topoOrder) {
        const int group = id.value < groupOf.size() ? groupOf[id.value] : -1;
        int box = -1;
        if (group >= 0) {
            auto [it, added] = boxOfGroup.try_emplace(group, static_cast<int>(out.membersOfBox.size()));
            box = it->second;
            if (added) {
                out.membersOfBox.emplace_back();
                out.groupOfBox.push_back(group);
            }
        } else {
            box = static_cast<int>(out.membersOfBox.size());
            out.membersOfBox.emplace_back();
            out.groupOfBox.push_back(-1);
        }
        out.membersOfBox[box].push_back(id);
        out.boxOfNode[id.value] = box;
    }
    out.input.sizes.reserve(out.membersOfBox.size());
    for (const auto& members : out.membersOfBox)
        out.input.sizes.push_back(sizer ? sizer(members) : defaultBoxSize(members));

    std::unordered_map<uint64_t, int> edgeOf;
    for (NodeId id : graph.topoOrder) {
        const int to = out.boxOfNode[id.value];
        for (TensorId t : graph.node(id).inputs) {
            if (!t.valid())
                continue;
            const Tensor& tensor = graph.tensor(t);
            if (tensor.isInitializer || !tensor.producer.valid())
                continue;
            const int from = out.boxOfNode[tensor.producer.value];
            if (from == to)
                continue;
            uint64_t key = (uint64_t(uint32_t(from)) << 32) | uint32_t(to);
            auto [it, added] = edgeOf.try_emplace(key, static_cast<int>(out.input.edges.size()));
            if (added) {
                out.input.edges.push_back({from, to});
                out.tensorsOfEdge.emplace_back();
            }
            auto& tensors = out.tensorsOfEdge[it->second];
            if (std::find(tensors.begin(), tensors.end(), t) == tensors.end())
                tensors.push_back(t);
        }
    }
    return out;
}

} // namespace bpu::layout
