// SPDX-License-Identifier: MIT
// G4.1 / G4.2 / G4.3: alignment padding that wastes compute and bytes.
#include "FindingUtil.h"
#include "InputResolution.h"
#include "core/analysis/Alignment.h"
#include "core/analysis/InputNormalization.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace bpu {

namespace {
int64_t roundUp(int64_t v, int64_t u) {
    return (v + u - 1) / u * u;
}

// An image input's layout is the runtime's (C kept, H and W aligned to the input units), not a feature map's:
// what it pads costs a preprocessing copy, not BPU compute (the first conv packs the few channels with its
// kernel taps). Advice of its own, low severity, no what-if fix to estimate.
Finding imageInputFinding(const AnalysisContext& c, const Tensor& t, const PaddedShape& p) {
    const auto& al = c.target.alignment;
    Finding f;
    f.rule = RuleId::G4_2;
    f.severity = Severity::Low;
    f.cause = "model input '" + t.name + "'";
    for (NodeId cns : t.consumers)
        f.nodes.push_back(cns);
    nlohmann::json rules = nlohmann::json::array();
    for (auto& d : dimPadRules(p, t.shape.dims, al))
        rules.push_back(std::move(d));
    f.title = "Model input '" + t.name + "' " + t.shape.toString() + " is laid out as " + dimsText(p.dims) +
              " by the runtime (" + std::to_string(int(p.wasteRatio() * 100)) + "% padding)";
    f.evidence = {{"tensor", t.name},
                  {"shape", t.shape.toString()},
                  {"padded_shape", dimsText(p.dims)},
                  {"padded_dims", rules},
                  {"waste_bytes", p.wasteBytes},
                  {"waste_ratio", p.wasteRatio()},
                  {"model_input", true},
                  {"alignment", "model input with C <= " + std::to_string(int64_t(al.inputCMax.value)) +
                                    ": C kept, H->" + std::to_string(int64_t(al.inputH.value)) + ", W->" +
                                    std::to_string(int64_t(al.inputW.value))}};
    f.recommendation =
        "The image is padded where it is written (preprocessing, or the NV12 pyramid path), not "
        "on the BPU: choose an input width that is a multiple of " +
        std::to_string(int64_t(al.inputW.value)) + " and a height that is a multiple of " +
        std::to_string(int64_t(al.inputH.value)) + " to avoid the copy.";
    f.fix.clear();
    f.whatIf.clear();
    return f;
}

// A per-channel vector [N, C, 1, 1]: a global-pool output, a squeeze-excitation branch (its 1x1 convs and
// gate) or the scale a broadcast multiply applies to a feature map. Its padding is a vector's layout (a few
// KiB at most), and moving its channels into W with a Reshape (what G4.3 would advise) adds the transform
// G6.6 advises against.
bool perChannelVector(const Tensor& t) {
    const auto& d = t.shape.dims;
    return t.shape.rank() == 4 && d[2] == 1 && d[3] == 1;
}

// A depthwise conv's channels follow its input: set_channels refuses it (the conv before it is the one to
// change, and it is listed with the same shape).
bool depthwise(const Graph& g, const Node& n) {
    if (n.attrIntOr("group", 1) <= 1 || n.inputs.size() < 2 || !n.inputs[1].valid())
        return false;
    const Tensor& w = g.tensor(n.inputs[1]);
    return w.shape.rank() == 4 && w.shape.dims[1] == 1;
}

// Whether a conv's output channels reach a model output before another layer consumes them (a class count,
// a head's box channels): those are the model's contract with its application, not a width to tune.
bool channelsReachOutput(const Graph& g, TensorId from) {
    std::vector<TensorId> todo{from};
    std::vector<uint8_t> seen(g.tensors.size(), 0);
    while (!todo.empty()) {
        const TensorId t = todo.back();
        todo.pop_back();
        if (seen[t.value])
            continue;
        seen[t.value] = 1;
        const Tensor& tensor = g.tensor(t);
        if (tensor.isGraphOutput)
            return true;
        for (NodeId c : tensor.consumers) {
            const Node& n = g.node(c);
            const bool consumes = (n.opType == "Conv" && !depthwise(g, n)) || n.opType == "ConvTranspose" ||
                                  n.opType == "Gemm" || n.opType == "MatMul";
            if (consumes)
                continue;
            for (TensorId o : n.outputs)
                if (o.valid())
                    todo.push_back(o);
        }
    }
    return false;
}

// G4.x is about BPU activation tensors: not a weight, not written by a CPU operator.
bool bpuActivation(const Graph& g, const AnalysisResult& r, const Tensor& t) {
    if (t.isInitializer || weightSource(g, t.id).valid())
        return false;
    return !t.producer.valid() || onBpuGraph(r.nodes[t.producer.value]);
}

struct Item {
    TensorId t;
    int64_t waste;
};

// One G4.x cause: tensors of one shape padded the same way (the conv, activation and residual outputs of a
// stage), one finding listing them all.
struct PadGroup {
    RuleId rule = RuleId::G4_2;
    std::vector<Item> items;
    int64_t waste = 0;
};

/// What a G4.x finding groups its tensors by: the rule, the shape and the shape it pads to. Compared as
/// numbers: the text of each (built per padded tensor, ~96k at 100k nodes) was most of the pass.
struct PadCause {
    RuleId rule;
    const std::vector<int64_t>* shape; ///< into the graph and the analysis, which outlive the pass
    const std::vector<int64_t>* padded;
    bool operator<(const PadCause& o) const {
        return std::tie(rule, *shape, *padded) < std::tie(o.rule, *o.shape, *o.padded);
    }
};

} // namespace

void findPaddingIssues(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const double threshold = c.target.paddingFindingRatio.value;
    const int64_t unitC = static_cast<int64_t>(c.target.alignment.convC.value);
    const int64_t unitH = static_cast<int64_t>(c.target.alignment.convH.value);
    const int64_t unitW = static_cast<int64_t>(c.target.alignment.convW.value);
    const double totalWaste = double(std::max<int64_t>(1, r.summary.paddingWasteBytes));

    std::vector<Item> items;
    // An in-graph input normalisation has its own advice (G1.1: fold it into the deployment's).
    std::vector<uint8_t> normalised(g.tensors.size(), 0);
    for (const auto& norm : InputNormalization::find(g))
        for (NodeId n : norm.nodes)
            for (TensorId o : g.node(n).outputs)
                if (o.valid())
                    normalised[o.value] = 1;
    for (const auto& t : g.tensors) {
        const PaddedShape& p = r.tensors[t.id.value].padded;
        // A Q/DQ annotation's output is its input's buffer: one finding for the root.
        if (p.applies && p.wasteRatio() > threshold && p.wasteBytes > 0 && aliasRoot(g, r, t.id) == t.id &&
            !normalised[t.id.value] && bpuActivation(g, r, t) && !perChannelVector(t))
            items.push_back({t.id, p.wasteBytes});
    }
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.waste > b.waste; });

    // Feature maps padded in H or W: what the input size decides (one finding for all of them).
    std::vector<TensorId> hwPadded;
    for (const auto& it : items) {
        const Tensor& t = g.tensor(it.t);
        const PaddedShape& p = r.tensors[it.t.value].padded;
        if (p.rule == PadRule::ConvLike && t.shape.rank() == 4 && p.dims.size() == 4 &&
            (p.dims[2] != t.shape.dims[2] || p.dims[3] != t.shape.dims[3]))
            hwPadded.push_back(it.t);
    }
    addInputResolutionFinding(c, hwPadded);

    std::map<PadCause, PadGroup> groups; // by cause
    std::vector<PadGroup*> order;        // causes, largest single waste first
    for (const auto& it : items) {
        const Tensor& t = g.tensor(it.t);
        const PaddedShape& p = r.tensors[it.t.value].padded;
        if (p.rule == PadRule::Input) {
            // The image after in-graph preprocessing is laid out as the input is: one finding, the input's.
            if (t.isGraphInput)
                r.findings.push_back(imageInputFinding(c, t, p));
            continue;
        }
        const bool conv = p.rule == PadRule::ConvLike;
        const bool bigCSmallHW = conv && t.shape.rank() == 4 && t.shape.dims[1] >= 4 * unitC &&
                                 (t.shape.dims[2] < unitH || t.shape.dims[3] < unitW) &&
                                 p.wasteRatio() >= 0.5;
        const RuleId rule = bigCSmallHW ? RuleId::G4_3 : conv ? RuleId::G4_2 : RuleId::G4_1;
        auto [g_, fresh] = groups.try_emplace(PadCause{rule, &t.shape.dims, &p.dims});
        if (fresh)
            order.push_back(&g_->second);
        g_->second.rule = rule;
        g_->second.items.push_back(it);
        g_->second.waste += it.waste;
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const PadGroup* a, const PadGroup* b) { return a->waste > b->waste; });

    // Which nodes the finding being built lists already (reset after each): a stage of a big model puts tens
    // of thousands of tensors in one group, and a search of the list per tensor was quadratic.
    std::vector<uint8_t> listed(g.nodes.size(), 0);
    for (const PadGroup* group : order) {
        const PadGroup& grp = *group;
        const Tensor& first = g.tensor(grp.items.front().t);
        const PaddedShape& p = r.tensors[first.id.value].padded;
        const bool conv = grp.rule != RuleId::G4_1;
        Finding f;
        f.rule = grp.rule;
        f.cause = first.shape.toString() + " -> " + dimsText(p.dims);
        nlohmann::json rules = nlohmann::json::array();
        for (auto& d : dimPadRules(p, first.shape.dims, c.target.alignment))
            rules.push_back(std::move(d));
        nlohmann::json perTensor = nlohmann::json::array();
        std::vector<std::string> names;
        std::vector<std::string> convsToWiden;
        for (const Item& it : grp.items) {
            const Tensor& t = g.tensor(it.t);
            NodeId owner =
                t.producer.valid() ? t.producer : (t.consumers.empty() ? NodeId{} : t.consumers.front());
            if (owner.valid() && !listed[owner.value]) {
                listed[owner.value] = 1;
                f.nodes.push_back(owner);
            }
            if (perTensor.size() < kEvidenceItems) // the most wasteful first
                perTensor.push_back({{"tensor", t.name},
                                     {"node", owner.valid() ? g.node(owner).name : std::string()},
                                     {"op", owner.valid() ? g.node(owner).opType : std::string()},
                                     {"waste_bytes", it.waste}});
            names.push_back(t.name);
            if (conv && owner.valid() && g.node(owner).opType == "Conv" && t.shape.rank() == 4 &&
                t.shape.dims[1] % unitC != 0 && !depthwise(g, g.node(owner)) && !channelsReachOutput(g, t.id))
                convsToWiden.push_back(g.node(owner).name);
        }
        // Issue 62: channels the application reads at a model output (21 class logits, a 1-channel
        // probability map) are its contract with the model: their C padding is unavoidable there.
        const bool atOutput =
            grp.rule == RuleId::G4_2 && std::all_of(grp.items.begin(), grp.items.end(), [&](const Item& it) {
                const Tensor& t = g.tensor(it.t);
                return t.shape.rank() == 4 && t.shape.dims[1] % unitC != 0 && channelsReachOutput(g, it.t);
            });
        const std::string count =
            std::to_string(grp.items.size()) + " tensor" + (grp.items.size() > 1 ? "s" : "");
        f.evidence = {{"shape", first.shape.toString()},
                      {"padded_shape", dimsText(p.dims)},
                      {"padded_dims", rules},
                      {"tensors", perTensor},
                      {"tensors_total", grp.items.size()},
                      {"waste_bytes", grp.waste},
                      {"waste_ratio", p.wasteRatio()},
                      {"alignment", conv ? "H->" + std::to_string(unitH) + ", W->" + std::to_string(unitW) +
                                               ", C->" + std::to_string(unitC)
                                         : "pow2 up to " + std::to_string(int64_t(
                                                               c.target.alignment.generalMaxUnit.value))}};
        f.severity = severityByShare(c, double(grp.waste), totalWaste);
        // The waste is what these tensors' padding costs: re-estimated as if they were aligned (a what-if).
        f.whatIf = {std::make_shared<AssumeEdit>(AssumeEdit::Aligned, std::move(names))};
        const std::string pct = std::to_string(int(p.wasteRatio() * 100)) + "%";
        if (grp.rule == RuleId::G4_3) {
            f.title = "Large C on small H/W: " + count + " " + first.shape.toString() + " pad to " +
                      dimsText(p.dims) + " (" + pct + " padding)";
            // Issue 62: no Reshape advice. Moving channels into W changes what the next conv computes (its
            // kernel slides over other neighbours); what is true is the waste and where it comes from.
            f.recommendation =
                "Put large extents on the dims with the larger alignment units: a very large C on a very "
                "small H and W pads H and W to their units for every channel. Where the architecture allows, "
                "keep the spatial size until later (downsample after the wide layers) or use fewer, wider "
                "stages; the what-if says what this padding costs.";
        } else if (atOutput) {
            const int64_t ch = first.shape.dims[1];
            f.unavoidable = true;
            f.severity = Severity::Low;
            f.title = "Padding wastes " + pct + " of " + count + " " + first.shape.toString() + " -> " +
                      dimsText(p.dims) + " at a model output: its " + std::to_string(ch) + " channel" +
                      (ch > 1 ? "s are" : " is") + " what the application reads (unavoidable)";
            f.recommendation =
                "These " + std::to_string(ch) + " channel" + (ch > 1 ? "s reach" : " reaches") +
                " a model output unchanged: the application reads them (a class count, a probability map), "
                "so "
                "their padding to a multiple of " +
                std::to_string(unitC) +
                " is unavoidable there (any H/W padding follows the input size). Listed for what it costs, "
                "after every finding with a change to make.";
            f.evidence["unavoidable"] = "the channels reach a model output";
        } else {
            f.title = "Padding wastes " + pct + " of " + count + " " + first.shape.toString() + " -> " +
                      dimsText(p.dims);
            f.recommendation = conv
                                   ? "Choose conv channel counts that are multiples of " +
                                         std::to_string(unitC) + ", H multiples of " + std::to_string(unitH) +
                                         " and W multiples of " + std::to_string(unitW) + "."
                                   : "Align each dimension to a power of two (or the general unit).";
            // A conv's output channels are the one dim the user can change directly: the aligned count
            // (the padding does real work) or the next lower one (less work), every listed conv together;
            // the fix search keeps the one that saves the most, if any does (FixSearch.cpp).
            if (!convsToWiden.empty()) {
                const int64_t cIn = first.shape.dims[1], up = roundUp(cIn, unitC), down = up - unitC;
                for (int64_t to : {up, down}) {
                    if (to <= 0)
                        continue;
                    EditList edits;
                    for (const auto& name : convsToWiden)
                        edits.push_back(std::make_shared<SetChannelsEdit>(name, to));
                    f.fixCandidates.push_back(std::move(edits));
                }
                f.fixSearch = FixSearch::ChannelCount;
                f.evidence["channels"] = cIn;
                nlohmann::json convs = nlohmann::json::array();
                for (size_t i = 0; i < convsToWiden.size() && i < kEvidenceItems; ++i)
                    convs.push_back(convsToWiden[i]);
                f.evidence["convs"] = std::move(convs);
                f.evidence["convs_total"] = convsToWiden.size();
            }
        }
        for (NodeId n : f.nodes)
            listed[n.value] = 0;
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
