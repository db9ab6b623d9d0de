// SPDX-License-Identifier: MIT
// G3: the BPU computes Conv [+BN] [+Add] [+ReLU|ReLU6] as one module when the chain allows it. Finds the
// chains the profile's patterns describe and, where a chain breaks, says why.
#include "NamedIds.h"
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
std::optional<std::string> sharedBatchNorm(const Graph& g, const OpTable& ops, TensorId out) {
    for (NodeId cns : ops.consumers(out)) {
        const auto in = ops.inputs(cns);
        if (ops.kind[cns.value] != OpKind::BatchNorm || in.size() < 2 || !in[1].valid())
            continue;
        const TensorId scale = in[1];
        int users = 0;
        for (NodeId u : ops.consumers(scale))
            users += ops.kind[u.value] == OpKind::BatchNorm;
        if (ops.initializer(scale) && users > 1)
            return "shared module: BatchNormalization parameters '" + g.tensor(scale).name +
                   "' are used at " + std::to_string(users) +
                   " call sites (a module called from several places is not fused)";
    }
    return std::nullopt;
}

// True when `n` has an input other than `cur` computed from `head`'s output: such an op (e.g. the residual
// Add of the next block, which reads this conv's output as its shortcut) cannot run in `head`'s output stage,
// so it is not a stage of head's chain. Walks up from n's other inputs through nodes after the head; `seen`
// holds a stamp per node (a new stamp per call, so it is never cleared).
class LaterInputSearch {
public:
    LaterInputSearch(const Graph& g, const AnalysisIndex& ix)
        : g_(g)
        , ix_(ix)
        , seen_(g.nodes.size(), 0) {}

    bool operator()(NodeId n, TensorId cur, NodeId head) {
        const auto& pos = g_.topoIndex();
        if (++stamp_ == 0) { // wrapped: forget every old stamp
            std::fill(seen_.begin(), seen_.end(), 0);
            stamp_ = 1;
        }
        stack_.clear();
        for (TensorId in : ix_.ops().inputs(n))
            if (runtime(in) && in != cur)
                stack_.push_back(ix_.ops().producer[in.value]);
        while (!stack_.empty()) {
            NodeId p = stack_.back();
            stack_.pop_back();
            if (p == head)
                return true;
            if (pos[p.value] <= pos[head.value] || seen_[p.value] == stamp_)
                continue; // before the head in topological order: not downstream of it
            seen_[p.value] = stamp_;
            for (TensorId in : ix_.ops().inputs(p))
                if (runtime(in))
                    stack_.push_back(ix_.ops().producer[in.value]);
        }
        return false;
    }

private:
    // Run-time data only: a Resize whose target size is Shape(cur) does not wait for cur's values.
    bool runtime(TensorId in) const {
        return in.valid() && !ix_.hasValue[in.value] && ix_.ops().producer[in.value].valid();
    }

    const Graph& g_;
    const AnalysisIndex& ix_;
    std::vector<uint32_t> seen_;
    uint32_t stamp_ = 0;
    std::vector<NodeId> stack_;
};

// The only run-time reader of a conv's output `out` when it is a Mul or Div by a constant that is a scalar
// or one value per output channel ([C], [1,C,1,1], ...), else invalid.
NodeId constantScale(const Graph& g, const AnalysisIndex& ix, TensorId out) {
    if (ix.runtimeConsumers[out.value] != 1 || ix.ops().graphOutput(out) || !ix.known(out) ||
        ix.rank[out.value] < 2)
        return {};
    NodeId reader;
    for (NodeId cns : ix.ops().consumers(out))
        if (!ix.compileTime[cns.value])
            reader = cns;
    const Node& n = g.node(reader);
    if ((n.opType != "Mul" && n.opType != "Div") || n.inputs.size() != 2 || n.outputs.empty() ||
        !n.outputs[0].valid())
        return {};
    if (n.opType == "Div" && n.inputs[0] != out)
        return {}; // s / conv is not a scale of the conv
    const TensorId k = n.inputs[0] == out ? n.inputs[1] : n.inputs[0];
    if (!k.valid() || !ix.hasValue[k.value] || !ix.known(k))
        return {};
    const int64_t channels = g.tensor(out).shape.dims[1], e = ix.count(k);
    if (e != 1 && e != channels)
        return {};
    // One value per channel: every dim but the channel axis (aligned from the right) is 1.
    const TensorShape& ks = g.tensor(k).shape;
    const size_t rank = ix.rank[out.value];
    if (e != 1) {
        if (ks.rank() > rank)
            return {};
        for (size_t d = 0; d < ks.rank(); ++d)
            if (ks.dims[d] != (d + rank - ks.rank() == 1 ? channels : 1))
                return {};
    }
    return reader;
}

// A folded quantization annotation: a Q or DQ that is not a boundary pass, or a fake-quant member (Clip).
bool isAnnotation(const AnalysisContext& c, NodeId n) {
    const OpKind k = c.ix->ops().kind[n.value];
    return c.r.nodes[n.value].placement == Placement::Folded &&
           (k == OpKind::Quantize || k == OpKind::Dequantize || c.ix->qdqMember[n.value]);
}

// Follows `cur` through a folded fake-quant (Q [-> Clip] -> DQ) when that is its only reader, appending the
// annotation's nodes to `chain`; returns the tensor after it (or `cur`).
TensorId throughAnnotation(const AnalysisContext& c, TensorId cur, std::vector<NodeId>& chain) {
    const OpTable& ops = c.ix->ops();
    for (int hops = 0; hops < 8; ++hops) {
        if (c.ix->runtimeConsumers[cur.value] != 1 || ops.graphOutput(cur))
            return cur;
        NodeId next;
        for (NodeId cns : ops.consumers(cur))
            if (!c.ix->compileTime[cns.value])
                next = cns;
        if (!isAnnotation(c, next))
            return cur;
        const auto outs = ops.outputs(next);
        if (outs.empty() || !outs[0].valid())
            return cur;
        chain.push_back(next);
        cur = outs[0];
    }
    return cur;
}

} // namespace

void runFusion(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    std::vector<bool> taken(g.nodes.size(), false);
    const OpTable& ops = c.ix->ops();
    LaterInputSearch needsLaterInput(g, *c.ix);
    // Groups are rebuilt in place: a re-analysis reuses each group's storage.
    size_t groups = 0;
    std::vector<NodeId> chain;
    std::string name;
    // The user's choices by head (AnalysisOptions): flags per node, not a set lookup per group.
    const std::vector<uint8_t> forcedHead = nodesNamed(g, c.options.forceFusedHeads),
                               unfusedHead = nodesNamed(g, c.options.unfusedHeads),
                               fusedHead = nodesNamed(g, c.options.fusedHeads);

    for (NodeId id : g.topoOrder) {
        if (taken[id.value] || ops.headPattern[id.value] < 0 || r.nodes[id.value].placement != Placement::BPU)
            continue;
        const size_t patternIndex = static_cast<size_t>(ops.headPattern[id.value]);
        const FusionPattern* pattern = &c.target.fusionPatterns[patternIndex];
        const auto headOut = ops.outputs(id);
        if (headOut.empty() || !headOut[0].valid())
            continue;
        const Node& head = g.node(id);

        // A module called from several places is not fused. ONNX shows a shared module only through shared
        // parameters; a shared conv is fused at each call site, but a BN module shared between call sites
        // (its scale/bias used by several BatchNormalization nodes) cannot fold into any one conv.
        const bool forced = named(forcedHead, id.value);
        if (auto bn = sharedBatchNorm(g, ops, headOut[0])) {
            if (!forced) {
                r.missed.push_back({{id}, *bn});
                continue;
            }
        }

        chain.assign(1, id);
        name = head.opType;
        TensorId cur = headOut[0];
        size_t annotations = 0; // folded fake-quant nodes taken into the chain (not stages)
        // A constant per-channel scale right after the head (torch's QAT Conv+BN exports conv(x, w * s) / s
        // before the BatchNormalization) folds into the conv's weights at compile time, as BN does: it is
        // part of the layer, not a layer of its own.
        if (const NodeId scale = constantScale(g, *c.ix, cur);
            scale.valid() && !taken[scale.value] && r.nodes[scale.value].placement != Placement::CPU) {
            chain.push_back(scale);
            name += '+';
            name += g.node(scale).opType;
            cur = g.node(scale).outputs[0];
        }
        for (size_t s = 0; s < pattern->then.size(); ++s) {
            // A QAT export quantizes the head's output before the next stage (Conv -> BN -> fake-quant ->
            // Add): a folded annotation is the same buffer, and the toolchain fuses across it.
            const size_t before = chain.size();
            cur = throughAnnotation(c, cur, chain);
            annotations += chain.size() - before;
            const auto& stage = pattern->then[s];
            auto inStage = [&](NodeId n) {
                return ops.stageBits ? (ops.stageMask[n.value] >> (8 * patternIndex + s)) & 1u
                                     : matches(stage, g.node(n).opType);
            };
            NodeId cand;
            for (NodeId cns : ops.consumers(cur))
                if (inStage(cns) && !taken[cns.value] && !needsLaterInput(cns, cur, id))
                    cand = cns;
            if (!cand.valid())
                continue; // optional stage absent
            const Node& next = g.node(cand);
            const Tensor& t = g.tensor(cur);
            std::string miss;
            if (const int users = c.ix->runtimeConsumers[cur.value]; users > 1)
                miss = "intermediate tensor '" + t.name + "' has " + std::to_string(users) +
                       " consumers, so it must be written out";
            else if (ops.graphOutput(cur))
                miss = "intermediate tensor '" + t.name + "' is a model output";
            else if (r.nodes[cand.value].placement == Placement::CPU)
                miss = "'" + next.name + "' runs on the CPU";
            else if (ops.kind[cand.value] == OpKind::Add && (next.inputs.empty() || next.inputs[0] != cur))
                miss = "the Add's first input is not from the fused " + head.opType +
                       " (swap the operands so the conv output comes first)";
            else if (ops.kind[cand.value] == OpKind::Clip && !isRelu6(g, next))
                miss = "Clip is not ReLU6 (needs min 0, max 6)";
            if (!miss.empty() && forced && r.nodes[cand.value].placement != Placement::CPU)
                miss.clear(); // what-if: the user restructures the graph so this chain fuses
            if (!miss.empty()) {
                r.missed.push_back({{chain[chain.size() - 1 - annotations], cand}, miss});
                break;
            }
            chain.push_back(cand);
            name += '+';
            name += next.opType;
            annotations = 0; // the ones before this stage are inside the layer now
            if (next.outputs.empty() || !next.outputs[0].valid())
                break;
            cur = next.outputs[0];
        }
        // Annotations after the last stage are not part of the layer.
        while (annotations > 0 && isAnnotation(c, chain.back())) {
            chain.pop_back();
            --annotations;
        }
        if (chain.size() - annotations < 2)
            continue;
        if (groups == r.groups.size())
            r.groups.emplace_back();
        FusedGroup& grp = r.groups[groups++];
        grp.id = GroupId{static_cast<uint32_t>(groups - 1)};
        grp.nodes = chain;
        grp.pattern = name;
        grp.fused = forced || (c.options.fuse ? !named(unfusedHead, id.value) : named(fusedHead, id.value));
        for (NodeId n : chain)
            taken[n.value] = true;
        if (grp.fused) {
            for (NodeId n : chain)
                r.nodes[n.value].fusionGroup = grp.id;
        } else {
            // Kept apart, BN/ReLU no longer fold into the conv: each becomes a layer of its own.
            for (NodeId n : chain)
                if (r.nodes[n.value].placement == Placement::Folded && !isAnnotation(c, n)) {
                    r.nodes[n.value].placement = Placement::BPU;
                    r.nodes[n.value].opClass = OpClass::Elementwise;
                    r.nodes[n.value].placementReason =
                        "runs as its own BPU layer: its fusion group is kept apart (G3)";
                }
        }
    }
    r.groups.resize(groups);
    r.summary.fusedGroups = static_cast<int>(
        std::count_if(r.groups.begin(), r.groups.end(), [](const FusedGroup& gr) { return gr.fused; }));
    r.summary.missedFusions = static_cast<int>(r.missed.size());
}

} // namespace bpu
