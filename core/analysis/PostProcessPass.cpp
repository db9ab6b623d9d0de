// SPDX-License-Identifier: MIT
// G1.2: the post-processing tail a detector export carries inside the model - box decoding, score
// filtering, top-k and NMS after the last layers, up to the model outputs. Deployed detectors end the model
// at the heads and run this on the CPU in post-processing; inside the model it splits the BPU graph and
// costs CPU<->BPU switches. Found here so that the findings can propose the cut (cut_at the head outputs)
// and do not advise moving its NMS or TopK to the BPU.
//
//   1. anchors: NonMaxSuppression, TopK, NonZero and control flow (If / Loop / Scan) run at run time, and
//      every op whose output size depends on values - unless a layer (Conv, ConvTranspose, Gemm, MatMul)
//      still follows it: a two-stage detector's proposal selection sits between its stages, not in the tail;
//   2. everything downstream of an anchor;
//   3. upstream of those, every op that only feeds the tail and is not a layer or part of a fused layer
//      (reshapes, concats, sigmoid/softmax, decoding arithmetic), so the tail starts at the head outputs.
#include "Passes.h"

#include <string>

namespace bpu {

namespace {

bool layerClass(OpClass c) {
    return c == OpClass::Conv || c == OpClass::Matmul || c == OpClass::Pool || c == OpClass::Norm;
}

} // namespace

void runPostProcessing(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const AnalysisIndex& ix = *c.ix;
    const OpTable& ops = ix.ops();
    r.postProcessing.assign(g.nodes.size(), 0);
    auto runtime = [&](TensorId t) {
        return t.valid() && !ix.hasValue[t.value];
    };
    auto layer = [&](NodeId n) {
        const NodeAnalysis& a = r.nodes[n.value];
        const FusedGroup* grp = r.group(a.fusionGroup);
        return layerClass(a.opClass) || (grp && grp->fused);
    };
    // Whether a layer runs downstream of each node (reverse topological order).
    std::vector<uint8_t> layerBelow(g.nodes.size(), 0);
    for (auto it = g.topoOrder.rbegin(); it != g.topoOrder.rend(); ++it) {
        uint8_t below = 0;
        for (TensorId o : ops.outputs(*it))
            if (runtime(o))
                for (NodeId cns : ops.consumers(o))
                    below |= layerBelow[cns.value] | (layer(cns) ? 1 : 0);
        layerBelow[it->value] = below;
    }
    // 1 + 2: anchors and what follows them.
    bool any = false;
    for (NodeId id : g.topoOrder) {
        if (ix.compileTime[id.value])
            continue;
        // An anchor (it selects or loops at run time, or its output size depends on values) with no layer
        // after it. (The layer test first: it spares reading the Node of most nodes.)
        bool tail =
            !layerBelow[id.value] && (ops.selectsAtRunTime[id.value] || g.node(id).dataDependentOn == id);
        for (TensorId in : ops.inputs(id))
            if (!tail && runtime(in) && ops.producer[in.value].valid())
                tail = r.postProcessing[ops.producer[in.value].value] != 0;
        r.postProcessing[id.value] = tail;
        any |= tail;
    }
    if (!any) {
        r.postProcessing.clear();
        return;
    }
    // 3: upstream, what only feeds the tail.
    for (auto it = g.topoOrder.rbegin(); it != g.topoOrder.rend(); ++it) {
        const NodeId id = *it;
        if (r.postProcessing[id.value] || ix.compileTime[id.value] || layer(id))
            continue;
        bool feeds = false, onlyTail = true;
        for (TensorId o : ops.outputs(id)) {
            if (!o.valid())
                continue;
            onlyTail = onlyTail && !ops.graphOutput(o);
            for (NodeId cns : ops.consumers(o)) {
                if (ix.compileTime[cns.value])
                    continue;
                feeds = true;
                onlyTail = onlyTail && r.postProcessing[cns.value];
            }
        }
        r.postProcessing[id.value] = feeds && onlyTail;
    }
    // Where it starts: run-time tensors written outside the tail and read inside it.
    std::vector<uint8_t> seen(g.tensors.size(), 0);
    for (NodeId id : g.topoOrder) {
        if (!r.postProcessing[id.value])
            continue;
        ++r.summary.postProcessingNodes;
        for (TensorId in : ops.inputs(id)) {
            if (!runtime(in) || seen[in.value])
                continue;
            const NodeId p = ops.producer[in.value];
            if (p.valid() && !r.postProcessing[p.value]) {
                seen[in.value] = 1;
                r.headOutputs.push_back(in);
            }
        }
    }
}

} // namespace bpu
