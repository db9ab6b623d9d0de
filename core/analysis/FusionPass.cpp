// SPDX-License-Identifier: MIT
// G3: the BPU computes Conv [+BN] [+Add] [+ReLU|ReLU6] as one module when the chain allows it. Finds the
// chains the profile's patterns describe and, where a chain breaks, says why.
#include "Passes.h"

#include <algorithm>
#include <cmath>

namespace bpu {

namespace {

bool matches(const std::vector<std::string>& ops, const std::string& op) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
}

std::optional<double> constScalar(const Graph& g, const Node& n, size_t input) {
    if (input >= n.inputs.size() || !n.inputs[input].valid())
        return std::nullopt;
    const auto& v = g.tensor(n.inputs[input]).value;
    if (!v || v->size() != 1)
        return std::nullopt;
    return v->at(0);
}

// ReLU6 appears in ONNX as Clip(0, 6): attributes before opset 11, constant inputs after.
bool isRelu6(const Graph& g, const Node& n) {
    std::optional<double> lo = n.attrFloat("min"), hi = n.attrFloat("max");
    if (!lo)
        lo = constScalar(g, n, 1);
    if (!hi)
        hi = constScalar(g, n, 2);
    return lo && hi && std::fabs(*lo) < 1e-6 && std::fabs(*hi - 6.0) < 1e-6;
}

// The reason a shared BatchNormalization module blocks fusing `head`, if it does.
std::optional<std::string> sharedBatchNorm(const Graph& g, const Node& head) {
    if (head.outputs.empty() || !head.outputs[0].valid())
        return std::nullopt;
    for (NodeId cns : g.tensor(head.outputs[0]).consumers) {
        const Node& bn = g.node(cns);
        if (bn.opType != "BatchNormalization" || bn.inputs.size() < 2 || !bn.inputs[1].valid())
            continue;
        const Tensor& scale = g.tensor(bn.inputs[1]);
        int users = 0;
        for (NodeId u : scale.consumers)
            users += g.node(u).opType == "BatchNormalization";
        if (scale.isInitializer && users > 1)
            return "shared module: BatchNormalization parameters '" + scale.name + "' are used at " +
                   std::to_string(users) + " call sites (a module called from several places is not fused)";
    }
    return std::nullopt;
}

// True when `n` has an input other than `cur` computed from `head`'s output: such an op (e.g. the residual
// Add of the next block, which reads this conv's output as its shortcut) cannot run in `head`'s output stage,
// so it is not a stage of head's chain.
bool needsLaterInput(const Graph& g, NodeId n, TensorId cur, NodeId head) {
    const auto& pos = g.topoIndex();
    std::vector<NodeId> stack;
    std::vector<bool> seen(g.nodes.size(), false);
    // Run-time data only: a Resize whose target size is Shape(cur) does not wait for cur's values.
    auto runtime = [&](TensorId in) {
        return in.valid() && !g.tensor(in).value && g.tensor(in).producer.valid();
    };
    for (TensorId in : g.node(n).inputs)
        if (runtime(in) && in != cur)
            stack.push_back(g.tensor(in).producer);
    while (!stack.empty()) {
        NodeId p = stack.back();
        stack.pop_back();
        if (p == head)
            return true;
        if (pos[p.value] <= pos[head.value] || seen[p.value])
            continue; // before the head in topological order: not downstream of it
        seen[p.value] = true;
        for (TensorId in : g.node(p).inputs)
            if (runtime(in))
                stack.push_back(g.tensor(in).producer);
    }
    return false;
}

} // namespace

void runFusion(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    std::vector<bool> taken(g.nodes.size(), false);

    for (NodeId id : g.topoOrder) {
        const Node& head = g.node(id);
        if (taken[id.value] || r.nodes[id.value].placement != Placement::BPU)
            continue;
        const FusionPattern* pattern = nullptr;
        for (const auto& p : c.target.fusionPatterns)
            if (matches(p.head, head.opType))
                pattern = &p;
        if (!pattern || head.outputs.empty() || !head.outputs[0].valid())
            continue;

        // A module called from several places is not fused. ONNX shows a shared module only through shared
        // parameters; a shared conv is fused at each call site, but a BN module shared between call sites
        // (its scale/bias used by several BatchNormalization nodes) cannot fold into any one conv.
        if (auto bn = sharedBatchNorm(g, head)) {
            if (!c.options.forceFusedHeads.count(head.name)) {
                r.missed.push_back({{id}, *bn});
                continue;
            }
        }

        std::vector<NodeId> chain{id};
        std::string name = head.opType;
        TensorId cur = head.outputs[0];
        for (const auto& stage : pattern->then) {
            const Tensor& t = g.tensor(cur);
            NodeId cand;
            for (NodeId cns : t.consumers)
                if (matches(stage, g.node(cns).opType) && !taken[cns.value] &&
                    !needsLaterInput(g, cns, cur, id))
                    cand = cns;
            if (!cand.valid())
                continue; // optional stage absent
            const Node& next = g.node(cand);
            std::string miss;
            if (const int users = runtimeConsumers(g, t); users > 1)
                miss = "intermediate tensor '" + t.name + "' has " + std::to_string(users) +
                       " consumers, so it must be written out";
            else if (t.isGraphOutput)
                miss = "intermediate tensor '" + t.name + "' is a model output";
            else if (r.nodes[cand.value].placement == Placement::CPU)
                miss = "'" + next.name + "' runs on the CPU";
            else if (next.opType == "Add" && (next.inputs.empty() || next.inputs[0] != cur))
                miss = "the Add's first input is not from the fused " + head.opType +
                       " (swap the operands so the conv output comes first)";
            else if (next.opType == "Clip" && !isRelu6(g, next))
                miss = "Clip is not ReLU6 (needs min 0, max 6)";
            if (!miss.empty() && c.options.forceFusedHeads.count(head.name) &&
                r.nodes[cand.value].placement != Placement::CPU)
                miss.clear(); // what-if: the user restructures the graph so this chain fuses
            if (!miss.empty()) {
                r.missed.push_back({{chain.back(), cand}, miss});
                break;
            }
            chain.push_back(cand);
            name += "+" + next.opType;
            if (next.outputs.empty() || !next.outputs[0].valid())
                break;
            cur = next.outputs[0];
        }
        if (chain.size() < 2)
            continue;
        FusedGroup grp;
        grp.id = GroupId{static_cast<uint32_t>(r.groups.size())};
        grp.nodes = chain;
        grp.pattern = name;
        grp.fused = c.options.forceFusedHeads.count(head.name) ||
                    (c.options.fuse ? !c.options.unfusedHeads.count(head.name) : c.options.fusedHeads.count(head.name) > 0);
        for (NodeId n : chain)
            taken[n.value] = true;
        if (grp.fused) {
            for (NodeId n : chain)
                r.nodes[n.value].fusionGroup = grp.id;
        } else {
            // Kept apart, BN/ReLU no longer fold into the conv: each becomes a layer of its own.
            for (NodeId n : chain)
                if (r.nodes[n.value].placement == Placement::Folded) {
                    r.nodes[n.value].placement = Placement::BPU;
                    r.nodes[n.value].opClass = "elementwise";
                    r.nodes[n.value].placementReason =
                        "runs as its own BPU layer: its fusion group is kept apart (G3)";
                }
        }
        r.groups.push_back(std::move(grp));
    }
    r.summary.fusedGroups = static_cast<int>(std::count_if(r.groups.begin(), r.groups.end(),
                                                           [](const FusedGroup& gr) { return gr.fused; }));
    r.summary.missedFusions = static_cast<int>(r.missed.size());
}

} // namespace bpu
