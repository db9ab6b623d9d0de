// SPDX-License-Identifier: MIT
// G6.1 - G6.6: raise the compute-to-memory ratio.
#include "FindingUtil.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"

#include <algorithm>
#include <set>

namespace bpu {

namespace {

constexpr size_t kMaxPerAdvisor = 10;

bool isTransform(const std::string& op) {
    static const std::set<std::string> s{"Reshape",   "Transpose",    "Flatten",     "Squeeze",
                                         "Unsqueeze", "DepthToSpace", "SpaceToDepth"};
    return s.count(op) > 0;
}

int changedDims(const Graph& g, const Node& n) {
    if (n.opType == "Transpose") {
        auto perm = n.attrInts("perm");
        if (!perm)
            return n.inputs.empty() ? 0 : static_cast<int>(g.tensor(n.inputs[0]).shape.rank());
        int changed = 0;
        for (size_t i = 0; i < perm->size(); ++i)
            changed += (*perm)[i] != static_cast<int64_t>(i);
        return changed;
    }
    if (n.inputs.empty() || n.outputs.empty() || !n.inputs[0].valid() || !n.outputs[0].valid())
        return 0;
    // The dims between the longest common leading and trailing runs change: [1,232,7,7] -> [1,2,116,7,7]
    // splits C in two (2 dims), [1,64,80,80] -> [1,64,6400] merges H and W (2 dims).
    const auto& a = g.tensor(n.inputs[0]).shape.dims;
    const auto& b = g.tensor(n.outputs[0]).shape.dims;
    size_t lead = 0;
    while (lead < a.size() && lead < b.size() && a[lead] == b[lead])
        ++lead;
    size_t trail = 0;
    while (trail < a.size() - lead && trail < b.size() - lead &&
           a[a.size() - 1 - trail] == b[b.size() - 1 - trail])
        ++trail;
    return static_cast<int>(std::max(a.size(), b.size()) - lead - trail);
}

} // namespace

void findGroupConv(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const int64_t unitC = static_cast<int64_t>(c.target.alignment.convC.value);
    const int64_t minC = static_cast<int64_t>(c.target.groupConvMinChannels.value);
    std::vector<NodeId> cands;
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        const NodeAnalysis& a = r.nodes[id.value];
        if (n.opType != "Conv" || a.placement != Placement::BPU || convGroups(n) != 1 ||
            a.bound != Bound::Memory)
            continue;
        if (n.inputs.size() < 2 || !n.inputs[1].valid() || !g.tensor(n.inputs[1]).shape.fullyKnown())
            continue;
        const auto& w = g.tensor(n.inputs[1]).shape.dims;
        if (w.size() < 3 || w[1] < minC)
            continue;
        cands.push_back(id);
    }
    std::sort(cands.begin(), cands.end(), [&](NodeId a, NodeId b) {
        return r.nodes[a.value].memoryUs - r.nodes[a.value].computeUs >
               r.nodes[b.value].memoryUs - r.nodes[b.value].computeUs;
    });
    for (size_t i = 0; i < cands.size() && i < kMaxPerAdvisor; ++i) {
        const Node& n = g.node(cands[i]);
        const NodeAnalysis& a = r.nodes[cands[i].value];
        const auto& w = g.tensor(n.inputs[1]).shape.dims;
        const int64_t cout = w[0], cin = w[1];
        nlohmann::json groups = nlohmann::json::array();
        for (int64_t gr : {2, 4, 8, 16, 32})
            if (cin % gr == 0 && cout % gr == 0 && (cin / gr) % unitC == 0 && (cout / gr) % unitC == 0)
                groups.push_back(gr);
        if (groups.empty())
            continue;
        Finding f;
        f.rule = "G6.1";
        f.nodes = {cands[i]};
        f.title = "Memory-bound dense conv '" + n.name + "' (" + std::to_string(cin) + "->" +
                  std::to_string(cout) + " ch): try group conv";
        f.evidence = {{"in_channels", cin},
                      {"out_channels", cout},
                      {"weight_bytes", a.weightBytes},
                      {"intensity_macs_per_byte", a.intensity},
                      {"ridge_macs_per_byte", r.ridgeIntensity},
                      {"compute_us", a.computeUs},
                      {"memory_us", a.memoryUs},
                      {"groups_keeping_alignment", groups}};
        f.severity = "medium";
        f.recommendation = "Use group convolution (groups " + groups.dump() +
                           " keep C/groups a multiple of " + std::to_string(unitC) +
                           ") to cut weight traffic as channels grow.";
        f.fix = {std::make_shared<SetGroupEdit>(n.name, groups[0].get<int64_t>())};
        r.findings.push_back(std::move(f));
    }
}

void findFeatureMaps(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const int64_t limit = static_cast<int64_t>(c.target.largeFeatureMapBytes.value);
    std::vector<TensorId> cands;
    for (const auto& t : g.tensors) {
        const TensorAnalysis& ta = r.tensors[t.id.value];
        if (!ta.padded.applies || ta.paddedBytes < limit || !ta.spillsToDdr || t.isGraphInput)
            continue;
        const bool boundary = runtimeConsumers(g, t) >= 2 ||
                              (t.producer.valid() &&
                               (g.node(t.producer).opType == "Add" || g.node(t.producer).opType == "Concat"));
        if (boundary)
            cands.push_back(t.id);
    }
    std::sort(cands.begin(), cands.end(), [&](TensorId a, TensorId b) {
        return r.tensors[a.value].paddedBytes > r.tensors[b.value].paddedBytes;
    });
    for (size_t i = 0; i < cands.size() && i < kMaxPerAdvisor; ++i) {
        const Tensor& t = g.tensor(cands[i]);
        const TensorAnalysis& ta = r.tensors[cands[i].value];
        Finding f;
        f.rule = "G6.2";
        if (t.producer.valid())
            f.nodes.push_back(t.producer);
        f.title = "Large feature map '" + t.name + "' (" + bytesText(ta.paddedBytes) +
                  ") crosses a block boundary via DDR";
        f.evidence = {{"tensor", t.name},
                      {"shape", t.shape.toString()},
                      {"bytes", ta.paddedBytes},
                      {"consumers", runtimeConsumers(g, t)},
                      {"sram_budget_bytes", int64_t(c.target.sramBudgetBytes.value)},
                      {"threshold_bytes", limit}};
        f.severity = "medium";
        f.recommendation =
            "Use smaller feature maps between blocks (downsample earlier or fewer channels at the "
            "boundary) to cut DDR<->SRAM traffic.";
        f.fix = {std::make_shared<AssumeEdit>(AssumeEdit::Resident, std::vector<std::string>{t.name})};
        r.findings.push_back(std::move(f));
    }
}

void findLargeWeights(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const int64_t limit = static_cast<int64_t>(c.target.largeWeightBytes.value);
    std::vector<NodeId> cands;
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        const NodeAnalysis& a = r.nodes[id.value];
        if (a.placement != Placement::BPU || (a.opClass != "conv" && a.opClass != "matmul"))
            continue;
        bool bigKernel = false;
        if (n.opType == "Conv" && n.inputs.size() > 1 && n.inputs[1].valid()) {
            const auto& w = g.tensor(n.inputs[1]).shape.dims;
            int64_t k = 1;
            for (size_t i = 2; i < w.size(); ++i)
                k *= w[i];
            bigKernel = k >= 25 && w.size() > 1 && w[1] >= 64;
        }
        if (a.weightBytes >= limit || bigKernel)
            cands.push_back(id);
    }
    std::sort(cands.begin(), cands.end(), [&](NodeId a, NodeId b) {
        return r.nodes[a.value].weightBytes > r.nodes[b.value].weightBytes;
    });
    // One layer, one recommendation: a memory-bound conv G6.1 already advises group conv for says so there.
    auto groupConvFinding = [&](NodeId id) -> Finding* {
        for (auto& f : r.findings)
            if (f.rule == "G6.1" && f.nodes.size() == 1 && f.nodes[0] == id)
                return &f;
        return nullptr;
    };
    size_t listed = 0;
    for (size_t i = 0; i < cands.size() && listed < kMaxPerAdvisor; ++i) {
        const Node& n = g.node(cands[i]);
        const NodeAnalysis& a = r.nodes[cands[i].value];
        if (Finding* g61 = groupConvFinding(cands[i])) {
            g61->evidence["large_weights"] = {
                {"rule", "G6.3"}, {"weight_bytes", a.weightBytes}, {"threshold_bytes", limit}};
            g61->recommendation += " Its weights (" + bytesText(a.weightBytes) +
                                   ") are also above the G6.3 large-weight threshold (" + bytesText(limit) +
                                   "): group conv divides them by the group count.";
            continue;
        }
        ++listed;
        Finding f;
        f.rule = "G6.3";
        f.nodes = {cands[i]};
        std::string wshape =
            n.inputs.size() > 1 && n.inputs[1].valid() ? g.tensor(n.inputs[1]).shape.toString() : "?";
        f.title = "Large weights in '" + n.name + "' (" + wshape + ", " + bytesText(a.weightBytes) + ")";
        f.evidence = {{"weight_shape", wshape},
                      {"weight_bytes", a.weightBytes},
                      {"threshold_bytes", limit},
                      {"memory_us", a.memoryUs},
                      {"compute_us", a.computeUs}};
        f.severity = a.memoryUs > a.computeUs ? "medium" : "low";
        f.recommendation =
            "Avoid big kernels and very high channel counts: use group conv for high channel counts, "
            "or split a big kernel into smaller ones.";
        if (n.opType == "Conv" && convGroups(n) == 1 && n.inputs.size() > 1 && n.inputs[1].valid()) {
            const auto& w = g.tensor(n.inputs[1]).shape.dims;
            const int64_t unitC = static_cast<int64_t>(c.target.alignment.convC.value);
            for (int64_t gr : {2, 4, 8})
                if (w.size() > 1 && w[0] % gr == 0 && w[1] % gr == 0 && (w[0] / gr) % unitC == 0 &&
                    (w[1] / gr) % unitC == 0) {
                    f.fix = {std::make_shared<SetGroupEdit>(n.name, gr)};
                    break;
                }
        }
        r.findings.push_back(std::move(f));
    }
}

void findShortcuts(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const int limit = static_cast<int>(c.target.shortcutStepsLimit.value);
    std::vector<TensorId> cands;
    for (const auto& t : g.tensors) {
        const TensorAnalysis& ta = r.tensors[t.id.value];
        if (!ta.padded.applies || runtimeConsumers(g, t) < 2 || ta.liveSteps <= limit || t.isGraphInput)
            continue;
        cands.push_back(t.id);
    }
    std::sort(cands.begin(), cands.end(), [&](TensorId a, TensorId b) {
        const auto& x = r.tensors[a.value];
        const auto& y = r.tensors[b.value];
        if (x.spillsToDdr != y.spillsToDdr)
            return x.spillsToDdr;
        return double(x.paddedBytes) * x.liveSteps > double(y.paddedBytes) * y.liveSteps;
    });
    for (size_t i = 0; i < cands.size() && i < kMaxPerAdvisor; ++i) {
        const Tensor& t = g.tensor(cands[i]);
        const TensorAnalysis& ta = r.tensors[cands[i].value];
        Finding f;
        f.rule = "G6.4";
        if (t.producer.valid())
            f.nodes.push_back(t.producer);
        for (NodeId cns : t.consumers)
            if (!isCompileTime(g, g.node(cns)))
                f.nodes.push_back(cns);
        f.title = "Long shortcut '" + t.name + "': live " + std::to_string(ta.liveSteps) + " steps, " +
                  bytesText(ta.paddedBytes) + (ta.spillsToDdr ? ", spills to DDR" : " held in SRAM");
        f.evidence = {{"tensor", t.name},
                      {"live_steps", ta.liveSteps},
                      {"bytes", ta.paddedBytes},
                      {"spills_to_ddr", ta.spillsToDdr},
                      {"sram_budget_bytes", int64_t(c.target.sramBudgetBytes.value)},
                      {"steps_limit", limit}};
        f.severity = ta.spillsToDdr ? "medium" : "low";
        f.recommendation =
            "Keep shortcuts short: a long-lived feature map occupies SRAM and may be dumped to DDR "
            "and reloaded; reorder the branch or downsample before the skip.";
        if (ta.spillsToDdr)
            f.fix = {std::make_shared<AssumeEdit>(AssumeEdit::Resident, std::vector<std::string>{t.name})};
        r.findings.push_back(std::move(f));
    }
}

void findBatchMode(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const int64_t small = static_cast<int64_t>(c.target.smallInputMax.value);
    for (TensorId in : g.inputs) {
        const auto& s = g.tensor(in).shape;
        if (s.rank() != 4 || !s.fullyKnown() || s.dims[0] != 1)
            continue;
        if (s.dims[2] > small || s.dims[3] > small)
            continue;
        Finding f;
        f.rule = "G6.5";
        f.title = "Small input " + s.toString() + " at batch 1: run in batch mode";
        for (NodeId cns : g.tensor(in).consumers)
            f.nodes.push_back(cns);
        int64_t weights = 0;
        for (const auto& a : r.nodes)
            if (a.placement == Placement::BPU)
                weights += a.weightBytes;
        f.evidence = {{"input", g.tensor(in).name},
                      {"shape", s.toString()},
                      {"small_input_max", small},
                      {"weight_bytes_per_inference", weights}};
        f.severity = "medium";
        f.recommendation =
            "The S100 is strongest on large inputs; for resolutions <= " + std::to_string(small) +
            " run several images per inference so the weights load once per batch.";
        f.fix = {std::make_shared<SetBatchEdit>(8)};
        r.findings.push_back(std::move(f));
        break;
    }
}

void findTransforms(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    std::vector<bool> seen(g.nodes.size(), false);
    struct Chain {
        std::vector<NodeId> nodes;
        int changed = 0;
        int64_t elements = 0;
    };
    std::vector<Chain> chains;
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        if (seen[id.value] || !isTransform(n.opType) || r.nodes[id.value].placement == Placement::Folded)
            continue;
        Chain ch;
        NodeId cur = id;
        while (true) {
            seen[cur.value] = true;
            ch.nodes.push_back(cur);
            ch.changed += changedDims(g, g.node(cur));
            ch.elements += r.metrics[cur.value].outputElements;
            const Node& cn = g.node(cur);
            if (cn.outputs.empty() || !cn.outputs[0].valid())
                break;
            const Tensor& out = g.tensor(cn.outputs[0]);
            if (out.consumers.size() != 1 || !isTransform(g.node(out.consumers[0]).opType) ||
                r.nodes[out.consumers[0].value].placement == Placement::Folded ||
                seen[out.consumers[0].value])
                break; // (seen: the importer rejects cycles, but a walk must end on any graph it is given)
            cur = out.consumers[0];
        }
        if (ch.nodes.size() >= 2 || ch.changed >= 2)
            chains.push_back(std::move(ch));
    }
    std::sort(chains.begin(), chains.end(), [](const Chain& a, const Chain& b) {
        return double(a.changed) * double(a.elements) > double(b.changed) * double(b.elements);
    });
    for (size_t i = 0; i < chains.size() && i < kMaxPerAdvisor; ++i) {
        const Chain& ch = chains[i];
        Finding f;
        f.rule = "G6.6";
        f.nodes = ch.nodes;
        std::string ops;
        nlohmann::json steps = nlohmann::json::array();
        for (NodeId id : ch.nodes) {
            const Node& n = g.node(id);
            ops += (ops.empty() ? "" : " -> ") + n.opType;
            steps.push_back({{"node", n.name},
                             {"op", n.opType},
                             {"changed_dims", changedDims(g, n)},
                             {"output_shape", n.outputs.empty() || !n.outputs[0].valid()
                                                  ? std::string("?")
                                                  : g.tensor(n.outputs[0]).shape.toString()}});
        }
        f.title = "Data-transform chain " + ops + " changes " + std::to_string(ch.changed) + " dims";
        f.evidence = {{"steps", steps}, {"changed_dims", ch.changed}, {"elements_moved", ch.elements}};
        f.severity = ch.changed >= 4 ? "medium" : "low";
        f.recommendation =
            "Reshape/Transpose cost time on the BPU's multi-dimensional layouts; merge the chain and "
            "change as few dimensions as possible.";
        // What merging would save: every step after the first costs nothing.
        std::vector<std::string> merged;
        for (size_t k = 1; k < ch.nodes.size(); ++k)
            merged.push_back(g.node(ch.nodes[k]).name);
        if (!merged.empty())
            f.fix = {std::make_shared<AssumeEdit>(AssumeEdit::Removed, std::move(merged))};
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
