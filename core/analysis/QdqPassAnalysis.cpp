// SPDX-License-Identifier: MIT
// G1.1: every quantize/dequantize pass over a whole tensor — the explicit boundary nodes and the ones the
// toolchain inserts at model inputs/outputs and at each CPU<->BPU edge.
#include "Passes.h"

#include <algorithm>
#include <unordered_set>

namespace bpu {

namespace {
bool isQdq(const Node& n) { return n.opType == "QuantizeLinear" || n.opType == "DequantizeLinear"; }
} // namespace

void runQdq(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const auto& nodes = r.nodes;
    auto placement = [&](NodeId id) { return nodes[id.value].placement; };
    auto elementsOf = [&](TensorId t) { return t.valid() ? g.tensor(t).shape.elements().value_or(0) : 0; };
    auto atModelIo = [&](const QdqPass& p) { return p.where == "model input" || p.where == "model output"; };

    for (const auto& n : g.nodes)
        if (isQdq(n))
            ++r.summary.qdqNodes;

    std::vector<QdqPass> passes;
    // Explicit nodes that stayed on the CPU (boundary pairs).
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        if (!isQdq(n) || placement(id) != Placement::CPU || n.inputs.empty() || !n.inputs[0].valid())
            continue;
        QdqPass p;
        p.node = id;
        p.tensor = n.inputs[0];
        p.kind = n.opType == "QuantizeLinear" ? "quantize" : "dequantize";
        const Tensor& in = g.tensor(n.inputs[0]);
        bool isOutput = false;
        for (TensorId o : n.outputs)
            isOutput |= o.valid() && g.tensor(o).isGraphOutput;
        p.where = in.isGraphInput ? "model input" : isOutput ? "model output" : "explicit";
        p.elements = elementsOf(p.tensor);
        passes.push_back(p);
    }

    // Implicit passes the toolchain inserts.
    std::unordered_set<uint32_t> seen;
    for (const auto& t : g.tensors) {
        if (t.isInitializer || t.value)
            continue;
        const bool fromCpu = t.producer.valid() && placement(t.producer) == Placement::CPU && !isQdq(g.node(t.producer));
        // The BPU graph includes what folds into it (a fused group's Relu, a BN at the input).
        const bool fromBpu =
            t.producer.valid() && onBpuGraph(nodes[t.producer.value]) && !isQdq(g.node(t.producer));
        bool toBpu = false, toCpu = false, toExplicitQ = false;
        for (NodeId cns : t.consumers) {
            const Node& cn = g.node(cns);
            if (isQdq(cn)) {
                toExplicitQ |= cn.opType == "QuantizeLinear";
                continue;
            }
            if (placement(cns) == Placement::CPU)
                toCpu = true;
            else if (onBpuGraph(nodes[cns.value]))
                toBpu = true;
        }
        auto add = [&](const char* kind, const char* where) {
            QdqPass p;
            p.tensor = t.id;
            p.kind = kind;
            p.where = where;
            p.elements = elementsOf(t.id);
            passes.push_back(p);
        };
        if (t.isGraphInput && toBpu && !toExplicitQ)
            add("quantize", "model input");
        else if (fromCpu && toBpu && !toExplicitQ)
            add("quantize", "CPU->BPU");
        if (fromBpu && toCpu)
            add("dequantize", "BPU->CPU");
        if (t.isGraphOutput && fromBpu && seen.insert(t.id.value).second) {
            // A BPU output that only leaves through a folded node still needs dequantizing.
            add("dequantize", "model output");
        }
    }

    for (auto& p : passes) {
        if (c.options.foldBoundaryQdq && atModelIo(p))
            continue;
        if (c.options.filterOutputsKeep > 0 && p.where == "model output" && p.kind == "dequantize") {
            // what-if: post-processing thresholds the int8 scores first and dequantizes only survivors
            const auto& s = g.tensor(p.tensor).shape;
            int64_t perCandidate = s.rank() == 4 ? s.dims[1] : s.rank() == 3 ? s.dims[2] : 1;
            p.elements = std::min<int64_t>(p.elements, c.options.filterOutputsKeep * perCandidate);
        }
        r.summary.qdqElements += p.elements;
        r.qdq.push_back(p);
    }
    r.summary.qdqPasses = static_cast<int>(r.qdq.size());
}

} // namespace bpu
