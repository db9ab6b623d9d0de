// SPDX-License-Identifier: MIT
// Deployment (hb_compile's config, AnalysisOptions::deploy): per-node precision, and the removable ops at the
// model's start and end that remove_node_type strips. Runs right after placement, before anything reads
// placements or precisions.
#include "Passes.h"

#include <optional>

namespace bpu {

namespace {

/// The removable-op category of an ONNX op type (hb_compile turns Flatten/Squeeze/Unsqueeze into Reshape).
std::optional<BoundaryOp> boundaryKind(const std::string& opType) {
    if (opType == "QuantizeLinear")
        return BoundaryOp::Quantize;
    if (opType == "DequantizeLinear")
        return BoundaryOp::Dequantize;
    if (opType == "Transpose")
        return BoundaryOp::Transpose;
    if (opType == "Cast")
        return BoundaryOp::Cast;
    if (opType == "Reshape" || opType == "Flatten" || opType == "Squeeze" || opType == "Unsqueeze")
        return BoundaryOp::Reshape;
    if (opType == "Softmax")
        return BoundaryOp::Softmax;
    return std::nullopt;
}

void applyPrecision(AnalysisContext& c) {
    const AnalysisOptions& o = c.options;
    const DeploySettings& d = o.deploy;
    if (!o.modelPrecision && !d.allNodesPrecision && d.nodePrecision.empty() && o.precisionOverrides.empty())
        return;
    for (size_t i = 0; i < c.r.nodes.size(); ++i) {
        NodeAnalysis& a = c.r.nodes[i];
        if (a.placement == Placement::CPU)
            continue; // float on the CPU whatever the config says
        const std::string& name = c.g.nodes[i].name;
        if (o.modelPrecision) {
            a.precision = *o.modelPrecision;
        } else {
            if (d.allNodesPrecision)
                a.precision = *d.allNodesPrecision;
            if (auto it = d.nodePrecision.find(name); it != d.nodePrecision.end())
                a.precision = it->second;
        }
        if (auto it = o.precisionOverrides.find(name); it != o.precisionOverrides.end())
            a.precision = it->second;
    }
}

void removeBoundaryOps(AnalysisContext& c) {
    const Graph& g = c.g;
    const DeploySettings& d = c.options.deploy;
    auto& nodes = c.r.nodes;
    const OpTable& ops = c.ix->ops();
    auto removable = [&](NodeId id, std::string& why) {
        const NodeAnalysis& a = nodes[id.value];
        if (a.placement != Placement::CPU || a.placementOverridden)
            return false;
        const Node& n = g.node(id);
        if (d.removeNodeNames.count(n.name)) {
            why = "remove_node_name";
            return true;
        }
        const auto kind = boundaryKind(n.opType);
        if (kind && d.removes(*kind)) {
            why = std::string("remove_node_type ") + boundaryOpName(*kind);
            return true;
        }
        return false;
    };
    auto runTime = [&](TensorId t) {
        return t.valid() && !ops.initializer(t) && !g.tensor(t).value;
    };
    auto remove = [&](NodeId id, const std::string& why, const char* end) {
        NodeAnalysis& a = nodes[id.value];
        a.placement = Placement::Folded;
        a.removedByDeploy = true;
        a.placementReason = std::string("removed at the model's ") + end + " by the deployment (" + why +
                            "): pre/post-processing does this work";
    };
    // An image input arrives as 8-bit pixels: a Quantize of it is absorbed into the BPU's input conversion.
    std::vector<bool> boundaryTensor(g.tensors.size(), false);
    for (TensorId in : g.inputs)
        boundaryTensor[in.value] = true;
    for (NodeId id : g.topoOrder) {
        std::string why;
        bool atInput = false, allBoundary = true;
        for (TensorId t : ops.inputs(id)) {
            if (!runTime(t))
                continue;
            atInput = true;
            allBoundary &= boundaryTensor[t.value] != 0;
        }
        if (!atInput || !allBoundary)
            continue;
        const Node& n = g.node(id);
        const bool imageQuantize = n.opType == "QuantizeLinear" &&
                                   nodes[id.value].placement == Placement::CPU && !n.inputs.empty() &&
                                   ops.graphInput(n.inputs[0]) &&
                                   isImageType(resolveInput(d, g, g.tensor(n.inputs[0]).name).type);
        if (imageQuantize)
            why = "image input: the pixels arrive as int8";
        else if (!removable(id, why))
            continue;
        remove(id, why, "input");
        for (TensorId o : ops.outputs(id))
            if (o.valid())
                boundaryTensor[o.value] = true;
    }
    // From the outputs back: an op whose every run-time result is read only by ops already removed, and is a
    // model output or read by something.
    std::vector<bool> isOutput(g.tensors.size(), false);
    for (TensorId out : g.outputs)
        isOutput[out.value] = true;
    for (auto it = g.topoOrder.rbegin(); it != g.topoOrder.rend(); ++it) {
        const NodeId id = *it;
        if (nodes[id.value].removedByDeploy)
            continue;
        bool any = false, all = true;
        for (TensorId o : ops.outputs(id)) {
            if (!o.valid())
                continue;
            const auto consumers = ops.consumers(o);
            bool ok = isOutput[o.value] || !consumers.empty();
            for (NodeId cns : consumers)
                ok &= nodes[cns.value].removedByDeploy;
            any = true;
            all &= ok;
        }
        std::string why;
        if (!any || !all || !removable(id, why))
            continue;
        remove(id, why, "output");
    }
}

} // namespace

void runDeployment(AnalysisContext& c) {
    applyPrecision(c);
    removeBoundaryOps(c);
}

} // namespace bpu
