// SPDX-License-Identifier: MIT
#include "NodeDeltas.h"

#include <algorithm>

namespace bpu {

NodeDeltas::NodeDeltas(const Graph& now, const CostEstimate& nowCost, const Graph& base,
                       const CostEstimate& baseCost)
    : batchNow_(std::max(1, nowCost.batch))
    , batchBase_(std::max(1, baseCost.batch)) {
    const size_t n = now.nodes.size();
    baseline_.assign(n, NodeId{});
    nowUs_.assign(n, 0.0);
    baseUs_.assign(n, 0.0);
    for (size_t i = 0; i < n; ++i) {
        if (i < nowCost.nodes.size())
            nowUs_[i] = nowCost.nodes[i].latencyUs / batchNow_;
        const NodeId b = base.findNode(now.nodes[i].name);
        if (!b.valid()) {
            ++newCount_;
            continue;
        }
        baseline_[i] = b;
        if (b.value < baseCost.nodes.size())
            baseUs_[i] = baseCost.nodes[b.value].latencyUs / batchBase_;
    }
    for (size_t i = 0; i < base.nodes.size(); ++i)
        if (!now.findNode(base.nodes[i].name).valid()) {
            removed_.push_back(base.nodes[i].name);
            if (i < baseCost.nodes.size())
                removedUs_ += baseCost.nodes[i].latencyUs / batchBase_;
        }
}

NodeChangeKind NodeDeltas::kind(NodeId now) const {
    return now.value < baseline_.size() && baseline_[now.value].valid() ? NodeChangeKind::Paired
                                                                        : NodeChangeKind::New;
}

NodeId NodeDeltas::baselineNode(NodeId now) const {
    return now.value < baseline_.size() ? baseline_[now.value] : NodeId{};
}

double NodeDeltas::nowUs(NodeId now) const {
    return now.value < nowUs_.size() ? nowUs_[now.value] : 0.0;
}

double NodeDeltas::baselineUs(NodeId now) const {
    return now.value < baseUs_.size() ? baseUs_[now.value] : 0.0;
}

double NodeDeltas::deltaUs(NodeId now) const {
    return kind(now) == NodeChangeKind::Paired ? nowUs(now) - baselineUs(now) : 0.0;
}

} // namespace bpu
