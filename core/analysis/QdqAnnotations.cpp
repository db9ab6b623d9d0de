// SPDX-License-Identifier: MIT
#include "QdqAnnotations.h"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace bpu {

bool passesScale(const Node& n) {
    static const std::unordered_set<std::string> ops{
        "MaxPool", "GlobalMaxPool", "AveragePool",  "GlobalAveragePool", "Relu",      "Clip",
        "Reshape", "Flatten",       "Squeeze",      "Unsqueeze",         "Transpose", "Concat",
        "Slice",   "Split",         "Pad",          "Identity",          "Gather",    "Tile",
        "Expand",  "DepthToSpace",  "SpaceToDepth", "ReduceMax",         "ReduceMin", "Dropout"};
    if (!n.domain.empty())
        return false;
    if (n.opType == "Resize" || n.opType == "Upsample")
        return n.attrString("mode").value_or("nearest") == "nearest";
    return ops.count(n.opType) > 0;
}

QdqAnnotations QdqAnnotations::find(const Graph& g, const AnalysisIndex& ix) {
    const OpTable& ops = ix.ops();
    QdqAnnotations a;
    a.member.assign(g.nodes.size(), 0);
    a.quantized.assign(g.tensors.size(), 0);
    a.annotated.assign(g.tensors.size(), 0);
    auto activation = [&](TensorId t) {
        return t.valid() && !ix.hasValue[t.value];
    };
    auto kind = [&](NodeId n) {
        return ops.kind[n.value];
    };
    // A model without DequantizeLinear has no fake-quant to follow (float exports: most models).
    bool anyDq = false;
    for (size_t i = 0; i < ops.nodeCount && !anyDq; ++i)
        anyDq = ops.kind[i] == OpKind::Dequantize;
    if (!anyDq)
        return a;
    // Members: integer ops (Clip, Identity) whose data comes from a Q (or a member) and that feed only DQs
    // (or members). In topological order a member's input producer is decided first.
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        if (n.opType != "Clip" && n.opType != "Identity")
            continue;
        if (n.inputs.empty() || !activation(n.inputs[0]) || n.outputs.empty() || !n.outputs[0].valid())
            continue;
        const NodeId p = ops.producer[n.inputs[0].value];
        if (!p.valid() || !(kind(p) == OpKind::Quantize || a.member[p.value]))
            continue;
        bool onlyToDq = !ops.consumers(n.outputs[0]).empty();
        for (NodeId c : ops.consumers(n.outputs[0]))
            onlyToDq = onlyToDq && (kind(c) == OpKind::Dequantize || g.node(c).opType == "Clip" ||
                                    g.node(c).opType == "Identity");
        a.member[id.value] = onlyToDq;
    }
    // Format and scales, forward.
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        const auto in = ops.inputs(id);
        if (kind(id) == OpKind::Dequantize) {
            if (in.empty() || !activation(in[0]))
                continue; // a weight's DQ
            NodeId p = ops.producer[in[0].value];
            while (p.valid() && a.member[p.value]) {
                const auto pin = ops.inputs(p);
                p = pin.empty() || !pin[0].valid() ? NodeId{} : ops.producer[pin[0].value];
            }
            a.qdqFormat |= p.valid() && kind(p) == OpKind::Quantize;
            for (TensorId o : ops.outputs(id))
                if (o.valid())
                    a.quantized[o.value] = 1;
            continue;
        }
        if (!passesScale(n))
            continue;
        // Data inputs: every run-time input of a Concat, the first input of the others.
        bool any = false, all = true;
        for (size_t i = 0; i < in.size(); ++i) {
            if (!activation(in[i]) || (n.opType != "Concat" && i > 0))
                continue;
            any = true;
            all = all && a.quantized[in[i].value];
        }
        if (any && all)
            for (TensorId o : ops.outputs(id))
                if (o.valid())
                    a.quantized[o.value] = 1;
    }
    // Annotated from below, backward: read by a Q, or by a scale-passing op whose output is.
    for (auto it = g.topoOrder.rbegin(); it != g.topoOrder.rend(); ++it) {
        const Node& n = g.node(*it);
        const auto in = ops.inputs(*it);
        if (in.empty() || !activation(in[0]))
            continue;
        bool mark = kind(*it) == OpKind::Quantize;
        if (!mark && passesScale(n))
            for (TensorId o : ops.outputs(*it))
                mark = mark || (o.valid() && a.annotated[o.value]);
        if (!mark)
            continue;
        for (size_t i = 0; i < in.size(); ++i)
            if (activation(in[i]) && (i == 0 || n.opType == "Concat"))
                a.annotated[in[i].value] = 1;
    }
    return a;
}

} // namespace bpu
