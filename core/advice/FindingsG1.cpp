// SPDX-License-Identifier: MIT
// G1.1 (quantize/dequantize passes) and G1.2 (CPU operators inside the model).
#include "FindingUtil.h"
#include "core/analysis/InputNormalization.h"
#include "core/edit/CutEdits.h"
#include "core/edit/NormalizationEdits.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"
#include "core/model/GraphCut.h"
#include "core/util/CheckedMath.h"

#include <cstdio>

#include <algorithm>
#include <map>

namespace bpu {

namespace {

bool inTail(const AnalysisResult& r, NodeId id) {
    return !r.postProcessing.empty() && r.postProcessing[id.value];
}

bool isQdqOp(const Node& n) {
    return n.opType == "QuantizeLinear" || n.opType == "DequantizeLinear";
}

// The operator table itself places the op on the CPU: the BPU cannot run it, so no finding may propose
// moving it there (a set_placement BPU what-if would estimate something the chip cannot do).
bool cpuByTable(const AnalysisContext& c, const Node& n) {
    const OpRule* rule = n.domain.empty() ? c.target.rule(n.opType) : nullptr;
    return rule && rule->placement == Placement::CPU && !c.r.nodes[n.id.value].placementOverridden;
}

bool floatKept(const NodeAnalysis& a) {
    return a.placementReason.startsWith("float kept");
}

// The post-processing tail: one finding that proposes ending the model at the heads.
void tailFinding(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    if (r.postProcessing.empty() || r.headOutputs.empty())
        return;
    std::map<std::string, int> histogram;
    std::vector<NodeId> cpuNodes;
    int nodes = 0;
    for (NodeId id : g.topoOrder)
        if (r.postProcessing[id.value]) {
            ++nodes;
            ++histogram[g.node(id).opType];
            if (r.nodes[id.value].placement == Placement::CPU)
                cpuNodes.push_back(id);
        }
    nlohmann::json heads = nlohmann::json::array(), names = nlohmann::json::array();
    for (TensorId t : r.headOutputs) {
        heads.push_back({{"tensor", g.tensor(t).name}, {"shape", g.tensor(t).shape.toString()}});
        names.push_back(g.tensor(t).name);
    }
    std::string selection;
    for (const char* op : {"NonMaxSuppression", "TopK", "NonZero", "If", "Loop"})
        if (histogram.count(op))
            selection += std::string(selection.empty() ? "" : ", ") + op;
    Finding f;
    f.rule = RuleId::G1_2;
    f.cause = "post-processing tail";
    f.severity = Severity::High;
    f.nodes = cpuNodes.empty() ? std::vector<NodeId>{} : cpuNodes;
    f.title = "Post-processing inside the model: " + std::to_string(nodes) + " nodes after the heads" +
              (selection.empty() ? "" : " (" + selection + ")") + ", " + std::to_string(cpuNodes.size()) +
              " on the CPU";
    f.evidence = {{"post_processing_nodes", nodes},
                  {"cpu_nodes", cpuNodes.size()},
                  {"ops", histogram},
                  {"head_outputs", heads},
                  {"cpu_bpu_transitions", r.summary.cpuBpuTransitions},
                  {"bpu_segments", r.summary.bpuSegments},
                  {"note", "the estimated gain counts the tail's CPU time as saved: that work moves to your "
                           "post-processing code, where it runs once over the int8 candidates that survive "
                           "the score threshold (G1.1)"}};
    f.recommendation =
        "End the model at its " + std::to_string(r.headOutputs.size()) +
        " head outputs (cut_at) and run box decoding, score filtering and NMS in post-processing on the CPU, "
        "as deployed detectors do: the BPU graph then runs without CPU<->BPU switches, and post-processing "
        "can threshold the int8 scores before dequantizing the survivors.";
    f.fix = {std::make_shared<CutAtEdit>(names)};
    r.findings.push_back(std::move(f));
}

// "0.485 0.456 0.406": space-separated, as hb_compile's mean_value / scale_value take them.
std::string valuesText(const std::vector<double>& v, double factor) {
    std::string out;
    char buf[32];
    for (double x : v) {
        std::snprintf(buf, sizeof buf, "%.6g", x * factor);
        out += (out.empty() ? "" : " ") + std::string(buf);
    }
    return out;
}

// G1.1: an image normalisation inside the graph belongs in the deployment's normalisation.
void normalisationFinding(AnalysisContext& c, const InputNormalization& norm) {
    const Graph& g = c.g;
    auto& r = c.r;
    nlohmann::json names = nlohmann::json::array();
    std::string ops;
    int64_t elements = 0;
    for (NodeId n : norm.nodes) {
        names.push_back(g.node(n).name);
        ops += (ops.empty() ? "" : ", ") + g.node(n).opType;
        elements += r.metrics[n.value].outputElements;
    }
    const Tensor& in = g.tensor(norm.input);
    Finding f;
    f.rule = RuleId::G1_1;
    f.cause = "input normalisation on '" + in.name + "'";
    f.severity = Severity::Medium;
    f.nodes = norm.nodes;
    f.title = "Input normalisation inside the model (" + ops + " on '" + in.name + "' " +
              in.shape.toString() + "): fold it into the deployment's normalisation";
    f.evidence = {{"input", in.name},
                  {"shape", in.shape.toString()},
                  {"nodes", names},
                  {"elements", elements},
                  {"formula", "y = (x - mean) * scale, per channel"}};
    std::string values;
    if (!norm.mean.empty()) {
        f.evidence["mean"] = norm.mean;
        f.evidence["scale"] = norm.scale;
        // The deployed input is 0..255 pixels (nv12 / rgb): the values the deployment needs, by the rule the
        // fix's edit uses (deployNormValues).
        const DeployNormValues dv = deployNormValues(norm.mean, norm.scale);
        f.evidence["mean_value_0_255"] = valuesText(dv.mean, 1.0);
        f.evidence["scale_value_0_255"] = valuesText(dv.scale, 1.0);
        values = " with mean_value '" + valuesText(dv.mean, 1.0) + "' and scale_value '" +
                 valuesText(dv.scale, 1.0) + "' (for 0..255 pixels; " +
                 (dv.fromUnitRange ? "the graph's own values, for [0, 1] input, are mean '"
                                   : "the graph's own values, already in pixel units, are mean '") +
                 valuesText(norm.mean, 1.0) + "', scale '" + valuesText(norm.scale, 1.0) + "')";
    }
    f.recommendation =
        "Remove the normalisation from the graph and give it to the deployment instead: hb_compile's "
        "norm_type data_mean_and_scale" +
        values +
        " runs it on the BPU as part of the input (nv12 / rgb input arrives as int8, with no "
        "float pass). Inside the graph it is " +
        std::to_string(norm.nodes.size()) + " extra layer" + (norm.nodes.size() > 1 ? "s" : "") +
        " over the whole image and a float input to quantize.";
    f.whatIf = {std::make_shared<AssumeEdit>(AssumeEdit::Removed, names)};
    // The change itself, when the values are known: the chain out of the graph, the same arithmetic in the
    // deployment (the trial re-estimates both; an input the deployment takes as a featuremap says why not).
    if (!norm.mean.empty())
        f.fix = {std::make_shared<MoveInputNormalizationEdit>(in.name)};
    r.findings.push_back(std::move(f));
}

} // namespace

void findPlacementIssues(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const int total = static_cast<int>(g.nodes.size());
    tailFinding(c);
    // One finding per CPU op type, so a model with 40 CPU Slices reads as one problem, not forty. The
    // post-processing tail has its own finding above.
    std::map<std::string, std::vector<NodeId>> byOp;
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        if (r.nodes[id.value].placement != Placement::CPU || isQdqOp(n) || inTail(r, id))
            continue;
        byOp[n.opType].push_back(id);
    }
    for (const auto& [op, ids] : byOp) {
        Finding f;
        f.rule = RuleId::G1_2;
        f.cause = "CPU " + op;
        f.nodes = ids;
        const NodeAnalysis& first = r.nodes[ids.front().value];
        const Node& firstNode = g.node(ids.front());
        int64_t elements = 0;
        for (NodeId id : ids)
            elements += r.metrics[id.value].outputElements;
        f.evidence = {{"op", op},
                      {"count", ids.size()},
                      {"reason", first.placementReason.str()},
                      {"bpu_segments", r.summary.bpuSegments},
                      {"cpu_bpu_transitions", r.summary.cpuBpuTransitions},
                      {"output_elements", elements}};
        f.severity =
            r.summary.bpuSegments > 1 ? Severity::High : severityByShare(c, double(ids.size()), total);
        const std::string plural = ids.size() > 1 ? "s" : "";
        // A node the BPU cannot run at all (by the operator table, or integer index arithmetic) gets advice
        // and no move-it-to-the-BPU fix; the others get that fix, estimated.
        bool movable = true;
        f.title = std::to_string(ids.size()) + " " + op + " node" + plural + " on the CPU";
        if (cpuByTable(c, firstNode)) {
            // The BPU cannot run it: say why (the op's own row) and what to do, with no move-it-to-the-BPU
            // fix.
            f.title =
                std::to_string(ids.size()) + " " + op + " node" + plural + " on the CPU (not a BPU operator)";
            f.recommendation =
                op + " runs on the CPU on this target (" + first.placementReason.str() +
                "). Take it out of the model's middle: move it into pre- or post-processing, or "
                "express the same computation with BPU operators, so the model runs as one BPU "
                "segment.";
            movable = false;
        } else if (floatKept(first)) {
            nlohmann::json where = nlohmann::json::array();
            for (NodeId id : ids)
                where.push_back(
                    {{"node", g.node(id).name}, {"reason", r.nodes[id.value].placementReason.str()}});
            f.title = std::to_string(ids.size()) + " " + op + " node" + plural +
                      " left in float: fake-quant missing in the QAT model";
            f.evidence["where"] = where;
            f.recommendation =
                "The QAT model has no fake-quant (QuantizeLinear/DequantizeLinear) on the input or "
                "output of " +
                std::string(ids.size() > 1 ? "these nodes" : "this node") +
                " (see where), so the toolchain keeps it in float on the CPU. Add the missing "
                "fake-quant (a QuantStub or observer on that input) and re-export; the fix "
                "estimates the model with it quantized on the BPU.";
        } else if (first.placementReason.startsWith("dtype:")) {
            // Index and shape arithmetic on int64/bool at run time: the BPU cannot compute it at all.
            f.recommendation = op + " computes on integer or bool tensors at run time (index or shape "
                                    "arithmetic), which the BPU does not: make those values compile-time "
                                    "constants (static shapes), or move the computation into pre- or "
                                    "post-processing.";
            movable = false;
        } else if (first.placementReason.startsWith("dynamic")) {
            f.recommendation = op +
                               " is a BPU operator, but its output shape is only known at run time here; "
                               "the BPU runs static shapes (only the batch may vary). Make the count "
                               "static (e.g. a fixed number of proposals or detections, padded) so it "
                               "runs on the BPU; the fix estimates it there.";
        } else {
            f.recommendation = "Replace " + op +
                               " with operators from the BPU constraint list (or compose an "
                               "equivalent from them) so the model runs as one BPU segment; every CPU<->BPU "
                               "switch also adds a quantize/dequantize pass.";
        }
        if (movable)
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
        nlohmann::json item = {
            {"tensor", t.name}, {"kind", p.kind}, {"where", p.where}, {"elements", p.elements}};
        NodeId near = p.node.valid()       ? p.node
                      : t.producer.valid() ? t.producer
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
        f.rule = RuleId::G1_1;
        f.cause = "model inputs and outputs";
        f.title = "Quantize/dequantize at the model's inputs and outputs: " + std::to_string(ioList.size()) +
                  " full passes (" + std::to_string(ioElements) + " elements)";
        f.nodes = ioNodes;
        f.evidence = {{"passes", ioList}, {"elements", ioElements}};
        f.severity = severityByShare(c, double(ioElements), allElements) == Severity::High ? Severity::Medium
                                                                                           : Severity::Low;
        f.recommendation =
            "Remove the boundary quantize/dequantize from the model and fold the arithmetic into "
            "pre-processing (normalisation) and post-processing, saving one pass over the data.";
        f.fix = {std::make_shared<RemoveBoundaryQdqEdit>()};
        r.findings.push_back(std::move(f));
    }
    if (!edgeList.empty()) {
        Finding f;
        f.rule = RuleId::G1_1;
        f.cause = "CPU<->BPU edges";
        f.title = std::to_string(edgeList.size()) + " quantize/dequantize passes at CPU<->BPU edges (" +
                  std::to_string(edgeElements) + " elements)";
        f.nodes = edgeNodes;
        f.evidence = {{"passes", edgeList}, {"elements", edgeElements}};
        f.severity = Severity::High;
        f.recommendation =
            "Each CPU<->BPU hand-over of a float tensor quantizes or dequantizes it whole; end the "
            "model before its post-processing and move the CPU operators the BPU can run (G1.2) "
            "to remove these passes.";
        // The fix: cut off the post-processing tail, and move the CPU nodes the BPU can run (never one the
        // operator table keeps on the CPU).
        EditList edits;
        std::vector<bool> kept(g.nodes.size(), true); // what the cut leaves
        if (!r.postProcessing.empty() && !r.headOutputs.empty()) {
            std::vector<std::string> names;
            for (TensorId t : r.headOutputs)
                names.push_back(g.tensor(t).name);
            try {
                kept = GraphCut::keptNodes(g, names);
                edits.push_back(std::make_shared<CutAtEdit>(names));
            } catch (const std::invalid_argument&) {
                kept.assign(g.nodes.size(), true);
            }
        }
        for (const auto& n : g.nodes)
            if (r.nodes[n.id.value].placement == Placement::CPU && !isQdqOp(n) && kept[n.id.value] &&
                !cpuByTable(c, n))
                edits.push_back(std::make_shared<SetPlacementEdit>(n.name, Placement::BPU));
        f.fix = std::move(edits);
        r.findings.push_back(std::move(f));
    }

    for (const auto& norm : InputNormalization::find(g))
        normalisationFinding(c, norm);

    // Detection-style outputs: filter on the int8 scores first, dequantize only the survivors.
    std::vector<TensorId> big;
    for (TensorId o : g.outputs) {
        int64_t e = g.tensor(o).shape.elements().value_or(0);
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
            outs.push_back({{"tensor", g.tensor(o).name},
                            {"shape", s.toString()},
                            {"elements", s.elements().value_or(0)}});
            if (g.tensor(o).producer.valid())
                producers.push_back(g.tensor(o).producer);
        }
        int64_t bigElements = 0;
        for (TensorId o : big)
            bigElements += g.tensor(o).shape.elements().value_or(0);
        Finding f;
        f.rule = RuleId::G1_1;
        f.cause = "detection outputs";
        f.title = "Detection outputs dequantized in full: filter before dequantizing";
        f.nodes = producers;
        f.evidence = {{"outputs", outs},
                      {"elements_dequantized", bigElements},
                      {"kept_candidates", keep},
                      {"elements_after_filtering", keptElements},
                      {"elements_saved", bigElements - keptElements},
                      {"parameter", "detection_keep_candidates"}};
        f.severity = Severity::Medium;
        f.recommendation =
            "In post-processing, threshold the int8 scores (and top-k) first, then dequantize only "
            "the surviving candidates: saves " +
            std::to_string(bigElements - keptElements) + " element dequantizations per image.";
        f.whatIf = {std::make_shared<FilterOutputsEdit>(keep)};
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
