// SPDX-License-Identifier: MIT
// G6.1 - G6.6: raise the compute-to-memory ratio.
#include "FindingUtil.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"
#include "core/edit/TransformEdits.h"

#include "core/analysis/Roofline.h"

#include <cstdio>

#include <algorithm>
#include <map>
#include <set>

namespace bpu {

namespace {

// Conv-like: the ops group conv and kernel-size advice (G6.1, G6.3) can apply to.
bool convLike(const Node& n) {
    return n.domain.empty() && (n.opType == "Conv" || n.opType == "ConvTranspose");
}

std::string weightShape(const Graph& g, const Node& n) {
    return n.inputs.size() > 1 && n.inputs[1].valid() ? g.tensor(n.inputs[1]).shape.toString() : "?";
}

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
    // One finding per weight shape: the repeated blocks of a stage share the cause and the advice.
    std::map<std::string, std::vector<NodeId>> byShape;
    std::vector<std::string> order;
    for (NodeId id : cands) {
        auto [it, fresh] = byShape.try_emplace(weightShape(g, g.node(id)));
        if (fresh)
            order.push_back(it->first);
        it->second.push_back(id);
    }
    for (const std::string& shape : order) {
        const std::vector<NodeId>& ids = byShape[shape];
        const Node& n = g.node(ids.front());
        const auto& w = g.tensor(n.inputs[1]).shape.dims;
        const int64_t cout = w[0], cin = w[1];
        nlohmann::json groups = nlohmann::json::array();
        for (int64_t gr : {2, 4, 8, 16, 32})
            if (cin % gr == 0 && cout % gr == 0 && (cin / gr) % unitC == 0 && (cout / gr) % unitC == 0)
                groups.push_back(gr);
        if (groups.empty())
            continue;
        Finding f;
        f.rule = RuleId::G6_1;
        f.cause = "dense conv " + shape;
        f.nodes = ids;
        nlohmann::json perNode = nlohmann::json::array();
        int64_t weights = 0;
        for (NodeId id : ids) {
            const NodeAnalysis& a = r.nodes[id.value];
            weights += a.weightBytes;
            perNode.push_back({{"node", g.node(id).name},
                               {"weight_bytes", a.weightBytes},
                               {"intensity_macs_per_byte", a.intensity},
                               {"compute_us", a.computeUs},
                               {"memory_us", a.memoryUs}});
            f.fix.push_back(std::make_shared<SetGroupEdit>(g.node(id).name, groups[0].get<int64_t>()));
        }
        const std::string count = ids.size() > 1 ? std::to_string(ids.size()) + " memory-bound dense convs"
                                                 : "Memory-bound dense conv '" + n.name + "'";
        f.title = count + " (" + std::to_string(cin) + "->" + std::to_string(cout) + " ch): try group conv";
        f.evidence = {{"in_channels", cin},
                      {"out_channels", cout},
                      {"weight_shape", shape},
                      {"weight_bytes", weights},
                      {"ridge_macs_per_byte", r.ridgeIntensity},
                      {"nodes", perNode},
                      {"groups_keeping_alignment", groups}};
        f.severity = Severity::Medium;
        f.recommendation = "Use group convolution (groups " + groups.dump() +
                           " keep C/groups a multiple of " + std::to_string(unitC) +
                           ") to cut weight traffic as channels grow.";
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
    for (size_t i = 0; i < cands.size(); ++i) {
        const Tensor& t = g.tensor(cands[i]);
        const TensorAnalysis& ta = r.tensors[cands[i].value];
        Finding f;
        f.rule = RuleId::G6_2;
        f.cause = "tensor '" + t.name + "'";
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
        f.severity = Severity::Medium;
        f.recommendation =
            "Use smaller feature maps between blocks (downsample earlier or fewer channels at the "
            "boundary) to cut DDR<->SRAM traffic.";
        f.whatIf = {std::make_shared<AssumeEdit>(AssumeEdit::Resident, std::vector<std::string>{t.name})};
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
        // Group conv and smaller kernels are conv advice: a MatMul's weights (a transformer's MLP) are not
        // this rule's cause.
        if (a.placement != Placement::BPU || !convLike(n))
            continue;
        // Issue 62: the guide's reason is the weight load; a layer whose compute outlasts loading its
        // weights (the roofline's own figures: the weights' share of its DDR time) does not wait for them,
        // and smaller weights would only mean less work on another model.
        const double weightLoadUs =
            a.ddrBytes > 0 ? a.memoryUs * double(a.weightBytes) / double(a.ddrBytes) : 0.0;
        if (a.computeUs >= weightLoadUs)
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
    // The first G6.1 finding naming each node, by index (the findings grow below), looked up once per
    // candidate: searching every finding's node list per candidate was quadratic on big CNNs.
    std::vector<int> groupConvFindingOf(g.nodes.size(), -1);
    for (size_t fi = 0; fi < r.findings.size(); ++fi)
        if (r.findings[fi].rule == RuleId::G6_1)
            for (NodeId id : r.findings[fi].nodes)
                if (id.valid() && id.value < groupConvFindingOf.size() && groupConvFindingOf[id.value] < 0)
                    groupConvFindingOf[id.value] = static_cast<int>(fi);
    for (size_t i = 0; i < cands.size(); ++i) {
        const Node& n = g.node(cands[i]);
        const NodeAnalysis& a = r.nodes[cands[i].value];
        if (const int fi = groupConvFindingOf[cands[i].value]; fi >= 0) {
            Finding* g61 = &r.findings[size_t(fi)];
            if (!g61->evidence.contains("large_weights")) {
                g61->evidence["large_weights"] = {
                    {"rule", "G6.3"}, {"weight_bytes", a.weightBytes}, {"threshold_bytes", limit}};
                g61->recommendation += " The weights (" + bytesText(a.weightBytes) +
                                       " per conv) are also above the G6.3 large-weight threshold (" +
                                       bytesText(limit) + "): group conv divides them by the group count.";
            }
            continue;
        }
        Finding f;
        f.rule = RuleId::G6_3;
        f.cause = "layer '" + n.name + "'";
        f.nodes = {cands[i]};
        std::string wshape =
            n.inputs.size() > 1 && n.inputs[1].valid() ? g.tensor(n.inputs[1]).shape.toString() : "?";
        f.title = "Large weights in '" + n.name + "' (" + wshape + ", " + bytesText(a.weightBytes) + ")";
        f.evidence = {{"weight_shape", wshape},
                      {"weight_bytes", a.weightBytes},
                      {"threshold_bytes", limit},
                      {"memory_us", a.memoryUs},
                      {"compute_us", a.computeUs}};
        f.severity = a.memoryUs > a.computeUs ? Severity::Medium : Severity::Low;
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
        // The guide's reason: a long-lived map is dumped to DDR (or crowds out something else). One that
        // stays in SRAM costs nothing, so it is no finding.
        if (!ta.padded.applies || runtimeConsumers(g, t) < 2 || ta.liveSteps <= limit || t.isGraphInput ||
            !ta.spillsToDdr)
            continue;
        cands.push_back(t.id);
    }
    std::sort(cands.begin(), cands.end(), [&](TensorId a, TensorId b) {
        const auto& x = r.tensors[a.value];
        const auto& y = r.tensors[b.value];
        return double(x.paddedBytes) * x.liveSteps > double(y.paddedBytes) * y.liveSteps;
    });
    for (size_t i = 0; i < cands.size(); ++i) {
        const Tensor& t = g.tensor(cands[i]);
        const TensorAnalysis& ta = r.tensors[cands[i].value];
        Finding f;
        f.rule = RuleId::G6_4;
        f.cause = "tensor '" + t.name + "'";
        if (t.producer.valid())
            f.nodes.push_back(t.producer);
        for (NodeId cns : t.consumers)
            if (!isCompileTime(g, g.node(cns)))
                f.nodes.push_back(cns);
        f.title = "Long shortcut '" + t.name + "': live " + std::to_string(ta.liveSteps) + " steps, " +
                  bytesText(ta.paddedBytes) + " written to DDR and read back";
        f.evidence = {{"tensor", t.name},
                      {"live_steps", ta.liveSteps},
                      {"bytes", ta.paddedBytes},
                      // What the cost engine charges: one store, one load per consumer reading it.
                      {"ddr_bytes", spilledTensorDdrBytes(g, r, t.id)},
                      {"sram_budget_bytes", int64_t(c.target.sramBudgetBytes.value)},
                      {"steps_limit", limit}};
        f.severity = Severity::Medium;
        f.recommendation =
            "Keep shortcuts short: a long-lived feature map occupies SRAM and may be dumped to DDR "
            "and reloaded; reorder the branch or downsample before the skip.";
        f.whatIf = {std::make_shared<AssumeEdit>(AssumeEdit::Resident, std::vector<std::string>{t.name})};
        r.findings.push_back(std::move(f));
    }
}

void findBatchMode(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const int64_t small = static_cast<int64_t>(c.target.smallInputMax.value);
    // The guide's reason for batching is loading the weights once per batch: the weight loads' share of
    // the BPU time (roofline: each layer's longer of compute and memory time plus its fixed cost) must be
    // material, else a batch only spreads per-inference overhead and delays every frame.
    double weightUs = 0;
    int64_t weights = 0;
    for (const NodeAnalysis& a : r.nodes) {
        if (a.placement != Placement::BPU || a.assumedFree)
            continue;
        weights += a.weightBytes;
        weightUs += ddrUs(a.weightBytes, c.target);
    }
    const double bpuUs = bpuRooflineUs(c);
    const double share = bpuUs > 0 ? weightUs / bpuUs : 0;
    const double minShare = c.target.batchWeightShareMin.value;
    if (share < minShare)
        return;
    for (TensorId in : g.inputs) {
        const auto& s = g.tensor(in).shape;
        if (s.rank() != 4 || !s.fullyKnown() || s.dims[0] != 1)
            continue;
        if (s.dims[2] > small || s.dims[3] > small)
            continue;
        Finding f;
        f.rule = RuleId::G6_5;
        f.assumes = {"batch_loads_weights_once"};
        f.cause = "input '" + g.tensor(in).name + "'";
        char pct[64];
        std::snprintf(pct, sizeof pct, "%.0f%%", share * 100);
        f.title = "Small input " + s.toString() + " at batch 1, weight loads " + pct +
                  " of the BPU time: run in batch mode";
        for (NodeId cns : g.tensor(in).consumers)
            f.nodes.push_back(cns);
        f.evidence = {{"input", g.tensor(in).name}, {"shape", s.toString()},
                      {"small_input_max", small},   {"weight_bytes_per_inference", weights},
                      {"weight_load_us", weightUs}, {"bpu_roofline_us", bpuUs},
                      {"weight_load_share", share}, {"weight_load_share_min", minShare}};
        f.severity = Severity::Medium;
        f.recommendation =
            "The S100 is strongest on large inputs; for resolutions <= " + std::to_string(small) +
            ", where loading the weights takes " + pct +
            " of the BPU time, run several images per inference so the weights load once "
            "per batch.";
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
    // One finding per pattern: the same chain (ops, shapes) repeated in every block of a transformer is
    // one cause, listed with every occurrence.
    auto outShape = [&](NodeId id) {
        const Node& n = g.node(id);
        return n.outputs.empty() || !n.outputs[0].valid() ? std::string("?")
                                                          : g.tensor(n.outputs[0]).shape.toString();
    };
    auto inShape = [&](NodeId id) {
        const Node& n = g.node(id);
        return n.inputs.empty() || !n.inputs[0].valid() ? std::string("?")
                                                        : g.tensor(n.inputs[0]).shape.toString();
    };
    std::map<std::string, std::vector<const Chain*>> byPattern;
    std::vector<std::string> order;
    for (const Chain& ch : chains) {
        std::string key = inShape(ch.nodes.front());
        for (NodeId id : ch.nodes)
            key += " " + g.node(id).opType + " " + outShape(id);
        auto [it, fresh] = byPattern.try_emplace(key);
        if (fresh)
            order.push_back(key);
        it->second.push_back(&ch);
    }
    for (const std::string& key : order) {
        const auto& same = byPattern[key];
        const Chain& ch = *same.front();
        Finding f;
        f.rule = RuleId::G6_6;
        f.cause = key;
        std::string ops;
        nlohmann::json steps = nlohmann::json::array();
        for (NodeId id : ch.nodes) {
            const Node& n = g.node(id);
            ops += (ops.empty() ? "" : " -> ") + n.opType;
            steps.push_back(
                {{"op", n.opType}, {"changed_dims", changedDims(g, n)}, {"output_shape", outShape(id)}});
        }
        nlohmann::json occurrences = nlohmann::json::array();
        std::vector<std::string> merged;
        int64_t elements = 0;
        for (const Chain* one : same) {
            for (NodeId id : one->nodes)
                f.nodes.push_back(id);
            if (occurrences.size() < kEvidenceItems) { // the most elements moved first
                nlohmann::json names = nlohmann::json::array();
                for (NodeId id : one->nodes)
                    names.push_back(g.node(id).name);
                occurrences.push_back({{"nodes", std::move(names)}, {"elements_moved", one->elements}});
            }
            elements += one->elements;
            // What merging would save: every step after the first costs nothing.
            for (size_t k = 1; k < one->nodes.size(); ++k)
                merged.push_back(g.node(one->nodes[k]).name);
        }
        f.title = "Data-transform chain " + ops + " " + inShape(ch.nodes.front()) + " -> " +
                  outShape(ch.nodes.back()) + " changes " + std::to_string(ch.changed) + " dims" +
                  (same.size() > 1 ? " (" + std::to_string(same.size()) + " times)" : "");
        f.evidence = {{"steps", steps},
                      {"changed_dims", ch.changed},
                      {"occurrences", occurrences},
                      {"occurrences_total", same.size()},
                      {"elements_moved", elements}};
        f.severity = ch.changed >= 4 ? Severity::Medium : Severity::Low;
        f.recommendation =
            "Reshape/Transpose cost time on the BPU's multi-dimensional layouts; merge the chain and "
            "change as few dimensions as possible.";
        // The change that removes work for real: a pair in the chain where the second undoes the first
        // (a Transpose and its inverse, a reshape and one back). Without one no gain is claimed.
        std::vector<std::string> pairs;
        for (const Chain* one : same)
            for (size_t k = 0; k + 1 < one->nodes.size(); ++k)
                if (transformPairCancels(g, one->nodes[k])) {
                    pairs.push_back(g.node(one->nodes[k]).name);
                    ++k; // pairs do not overlap
                }
        // A pair that cancels costs both its steps: the what-if takes the first away too, so its effect
        // stays an upper bound on the fix's.
        for (const auto& first : pairs)
            if (std::find(merged.begin(), merged.end(), first) == merged.end())
                merged.push_back(first);
        if (!merged.empty())
            f.whatIf = {std::make_shared<AssumeEdit>(AssumeEdit::Removed, std::move(merged))};
        if (!pairs.empty())
            f.fix = {std::make_shared<RemoveTransformPairEdit>(std::move(pairs))};
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
