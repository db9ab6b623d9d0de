// SPDX-License-Identifier: MIT
// G1.1 (quantize/dequantize passes) and G1.2 (CPU operators inside the model).
#include "FindingUtil.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"
#include "core/util/CheckedMath.h"

#include <algorithm>
#include <map>

namespace bpu {

void findPlacementIssues(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const int total = static_cast<int>(g.nodes.size());
    // One finding per CPU op type, so a model with 40 CPU Slices reads as one problem, not forty.
    std::map<std::string, std::vector<NodeId>> byOp;
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        if (r.nodes[id.value].placement != Placement::CPU || n.opType == "QuantizeLinear" ||
            n.opType == "DequantizeLinear")
            continue;
        byOp[n.opType].push_back(id);
    }
    for (const auto& [op, ids] : byOp) {
        Finding f;
        f.rule = "G1.2";
        f.nodes = ids;
        const NodeAnalysis& first = r.nodes[ids.front().value];
        f.title = std::to_string(ids.size()) + " " + op + " node" + (ids.size() > 1 ? "s" : "") + " on the CPU";
        int64_t elements = 0;
        for (NodeId id : ids)
            elements += r.metrics[id.value].outputElements;
        f.evidence = {{"op", op},
                      {"count", ids.size()},
                      {"reason", first.placementReason},
                      {"bpu_segments", r.summary.bpuSegments},
                      {"output_elements", elements}};
        f.severity = r.summary.bpuSegments > 1 ? "high" : severityByShare(double(ids.size()), total);
        f.recommendation =
            "Replace " + op +
            " with operators from the BPU constraint list (or compose an "
            "equivalent from them) so the model runs as one BPU segment; every CPU<->BPU switch "
            "also adds a quantize/dequantize pass.";
        for (NodeId id : ids)
            f.fix.push_back(std::make_shared<SetPlacementEdit>(g.node(id).name, Placement::BPU));
        r.findings.push_back(std::move(f));
    }
}

void findQdqIssues(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    int64_t ioElements = 0, edgeElements = 0;
    std::vector<NodeId> ioNodes, edgeNodes;
    nlohmann::json ioList = nlohmann::json::array(), edgeList = nlohmann::json::array();
    for (const auto& p : r.qdq) {
        const Tensor& t = g.tensor(p.tensor);
        nlohmann::json item = {{"tensor", t.name}, {"kind", p.kind}, {"where", p.where}, {"elements", p.elements}};
        NodeId near = p.node.valid() ? p.node : t.producer.valid() ? t.producer
                                            : (t.consumers.empty() ? NodeId{} : t.consumers.front());
        if (p.where == "model input" || p.where == "model output") {
            ioElements = satAdd(ioElements, p.elements);
            ioList.push_back(item);
            if (near.valid())
                ioNodes.push_back(near);
        } else {
            edgeElements = satAdd(edgeElements, p.elements);
            edgeList.push_back(item);
            if (near.valid())
                edgeNodes.push_back(near);
        }
    }
    const double allElements = double(std::max<int64_t>(1, r.summary.qdqElements));
    if (!ioList.empty()) {
        Finding f;
        f.rule = "G1.1";
        f.title = "Quantize/dequantize at the model's inputs and outputs: " + std::to_string(ioList.size()) +
                  " full passes (" + std::to_string(ioElements) + " elements)";
        f.nodes = ioNodes;
        f.evidence = {{"passes", ioList}, {"elements", ioElements}};
        f.severity = severityByShare(double(ioElements), allElements) == "high" ? "medium" : "low";
        f.recommendation = "Remove the boundary quantize/dequantize from the model and fold the arithmetic into "
                           "pre-processing (normalisation) and post-processing, saving one pass over the data.";
        f.fix = {std::make_shared<RemoveBoundaryQdqEdit>()};
        r.findings.push_back(std::move(f));
    }
    if (!edgeList.empty()) {
        Finding f;
        f.rule = "G1.1";
        f.title = std::to_string(edgeList.size()) + " quantize/dequantize passes at CPU<->BPU edges (" +
                  std::to_string(edgeElements) + " elements)";
        f.nodes = edgeNodes;
        f.evidence = {{"passes", edgeList}, {"elements", edgeElements}};
        f.severity = "high";
        f.recommendation =
            "Each CPU<->BPU switch quantizes or dequantizes a whole tensor; move the CPU operators "
            "to the BPU (G1.2) to remove these passes.";
        for (const auto& n : g.nodes)
            if (r.nodes[n.id.value].placement == Placement::CPU && n.opType != "QuantizeLinear" &&
                n.opType != "DequantizeLinear")
                f.fix.push_back(std::make_shared<SetPlacementEdit>(n.name, Placement::BPU));
        r.findings.push_back(std::move(f));
    }

    // Detection-style outputs: filter on the int8 scores first, dequantize only the survivors.
    int64_t outElements = 0;
    std::vector<TensorId> big;
    for (TensorId o : g.outputs) {
        int64_t e = g.tensor(o).shape.elements().value_or(0);
        outElements += e;
        if (e >= 10000)
            big.push_back(o);
    }
    const bool multiScale = g.outputs.size() >= 2 && big.size() >= 2;
    bool denseCandidates = false;
    for (TensorId o : big) {
        const auto& s = g.tensor(o).shape;
        denseCandidates |= s.rank() == 3 && s.dims[1] >= 1000;
    }
    const bool dequantizedOnBoard = std::any_of(r.qdq.begin(), r.qdq.end(), [](const QdqPass& p) {
        return p.kind == "dequantize" && p.where == "model output";
    });
    if ((multiScale || denseCandidates) && dequantizedOnBoard) {
        const int64_t keep = static_cast<int64_t>(c.target.detectionKeepCandidates.value);
        int64_t keptElements = 0;
        nlohmann::json outs = nlohmann::json::array();
        std::vector<NodeId> producers;
        for (TensorId o : big) {
            const auto& s = g.tensor(o).shape;
            // Channels per candidate: dim 1 of NCHW heads, the last dim of [N, anchors, C].
            int64_t perCandidate = s.rank() == 4 ? s.dims[1] : s.rank() == 3 ? s.dims[2] : 1;
            keptElements += std::min<int64_t>(s.elements().value_or(0), keep * perCandidate);
            outs.push_back({{"tensor", g.tensor(o).name}, {"shape", s.toString()}, {"elements", s.elements().value_or(0)}});
            if (g.tensor(o).producer.valid())
                producers.push_back(g.tensor(o).producer);
        }
        int64_t bigElements = 0;
        for (TensorId o : big)
            bigElements += g.tensor(o).shape.elements().value_or(0);
        Finding f;
        f.rule = "G1.1";
        f.title = "Detection outputs dequantized in full: filter before dequantizing";
        f.nodes = producers;
        f.evidence = {{"outputs", outs},
                      {"elements_dequantized", bigElements},
                      {"kept_candidates", keep},
                      {"elements_after_filtering", keptElements},
                      {"elements_saved", bigElements - keptElements},
                      {"parameter", "detection_keep_candidates"}};
        f.severity = "medium";
        f.recommendation = "In post-processing, threshold the int8 scores (and top-k) first, then dequantize only "
                           "the surviving candidates: saves " + std::to_string(bigElements - keptElements) +
                           " element dequantizations per image.";
        f.fix = {std::make_shared<FilterOutputsEdit>(keep)};
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
