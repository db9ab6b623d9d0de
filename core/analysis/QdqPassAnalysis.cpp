// SPDX-License-Identifier: MIT
// G1.1: every quantize/dequantize pass over a whole tensor — the explicit boundary nodes and the ones the
// toolchain inserts at model inputs/outputs and at each CPU<->BPU edge.
#include "Passes.h"
#include "core/util/CheckedMath.h"

#include <algorithm>

namespace bpu {

void runQdq(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const AnalysisIndex& ix = *c.ix;
    const OpTable& ops = ix.ops();
    auto placement = [&](NodeId id) {
        return ix.placement[id.value];
    };
    auto elementsOf = [&](TensorId t) {
        return t.valid() ? c.ix->count(t) : 0;
    };
    auto isQdq = [&](NodeId id) {
        return ops.kind[id.value] == OpKind::Quantize || ops.kind[id.value] == OpKind::Dequantize;
    };

    for (const auto& n : g.nodes)
        if (isQdq(n.id))
            ++r.summary.qdqNodes;

    std::vector<QdqPass> passes;
    // Explicit nodes that stayed on the CPU (boundary pairs).
    for (NodeId id : g.topoOrder) {
        if (!isQdq(id) || placement(id) != Placement::CPU)
            continue;
        const auto inputs = ops.inputs(id);
        if (inputs.empty() || !inputs[0].valid())
            continue;
        QdqPass p;
        p.node = id;
        p.tensor = inputs[0];
        p.kind = ops.kind[id.value] == OpKind::Quantize ? "quantize" : "dequantize";
        bool isOutput = false;
        for (TensorId o : ops.outputs(id))
            isOutput |= o.valid() && ops.graphOutput(o);
        p.where = ops.graphInput(inputs[0]) ? "model input" : isOutput ? "model output" : "explicit";
        p.elements = elementsOf(p.tensor);
        passes.push_back(p);
    }

    // Implicit passes the toolchain inserts.
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorId t{static_cast<uint32_t>(i)};
        if (ops.initializer(t) || ix.hasValue[i])
            continue;
        const NodeId producer = ops.producer[i];
        const bool fromCpu = producer.valid() && placement(producer) == Placement::CPU && !isQdq(producer);
        // The BPU graph includes what folds into it (a fused group's Relu, a BN at the input).
        const bool fromBpu = producer.valid() && ix.onBpu[producer.value] && !isQdq(producer);
        bool toBpu = false, toCpu = false, toExplicitQ = false;
        for (NodeId cns : ops.consumers(t)) {
            if (isQdq(cns)) {
                toExplicitQ |= ops.kind[cns.value] == OpKind::Quantize;
                continue;
            }
            if (placement(cns) == Placement::CPU)
                toCpu = true;
            else if (ix.onBpu[cns.value])
                toBpu = true;
        }
        auto add = [&](const char* kind, const char* where) {
            QdqPass p;
            p.tensor = t;
            p.kind = kind;
            p.where = where;
            p.elements = elementsOf(t);
            passes.push_back(p);
        };
        // Integer and bool tensors (indices, masks, already-quantized int8) cross the units as they are: the
        // hand-over copies them, nothing is quantized or dequantized.
        const DataType dt = ix.dtype[i];
        const bool numeric = !(isIntegerType(dt) || dt == DataType::Bool);
        if (ops.graphInput(t) && toBpu && !toExplicitQ)
            add("quantize", "model input");
        else if (fromCpu && toBpu && !toExplicitQ && numeric)
            add("quantize", "CPU->BPU");
        if (fromBpu && toCpu && numeric)
            add("dequantize", "BPU->CPU");
        if (ops.graphOutput(t) && fromBpu) {
            // A BPU output that only leaves through a folded node still needs dequantizing.
            add("dequantize", "model output");
        }
    }

    for (auto& p : passes) {
        // The deployment decides whether the CPU quantizes an input (a featuremap whose Quantize stays) and
        // dequantizes the outputs (Dequantize not removed); an image input arrives as int8 pixels.
        if (p.where == "model input" &&
            !resolveInput(c.options.deploy, g, g.tensor(p.tensor).name).quantizedOnCpu)
            continue;
        if (p.where == "model output" && p.kind == "dequantize" &&
            c.options.deploy.removes(BoundaryOp::Dequantize))
            continue;
        if (c.options.filterOutputsKeep > 0 && p.where == "model output" && p.kind == "dequantize") {
            // what-if: post-processing thresholds the int8 scores first and dequantizes only survivors
            const auto& s = g.tensor(p.tensor).shape;
            int64_t perCandidate = s.rank() == 4 ? s.dims[1] : s.rank() == 3 ? s.dims[2] : 1;
            p.elements = std::min<int64_t>(p.elements, satMul(c.options.filterOutputsKeep, perCandidate));
        }
        r.summary.qdqElements = satAdd(r.summary.qdqElements, p.elements);
        r.qdq.push_back(p);
    }
    r.summary.qdqPasses = static_cast<int>(r.qdq.size());
}

} // namespace bpu
