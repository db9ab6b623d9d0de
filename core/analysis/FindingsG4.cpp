// SPDX-License-Identifier: MIT
// G4.1 / G4.2 / G4.3: alignment padding that wastes compute and bytes.
#include "FindingUtil.h"
#include "InputNormalization.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"

#include <algorithm>

namespace bpu {

namespace {
int64_t roundUp(int64_t v, int64_t u) {
    return (v + u - 1) / u * u;
}
constexpr size_t kMaxPerRule = 12; // the table in the report/UI lists the rest

// An image input's layout is the runtime's (C kept, H and W aligned to the input units), not a feature map's:
// what it pads costs a preprocessing copy, not BPU compute (the first conv packs the few channels with its
// kernel taps). Advice of its own, low severity, no what-if fix to estimate.
Finding imageInputFinding(const AnalysisContext& c, const Tensor& t, const PaddedShape& p) {
    const auto& al = c.target.alignment;
    Finding f;
    f.rule = "G4.2";
    f.severity = "low";
    for (NodeId cns : t.consumers)
        f.nodes.push_back(cns);
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& d : p.dimRules)
        if (!d.empty())
            rules.push_back(d);
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
    return f;
}

} // namespace

void findPaddingIssues(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const double threshold = c.target.paddingFindingRatio.value;
    const int64_t unitC = static_cast<int64_t>(c.target.alignment.convC.value);
    const int64_t unitH = static_cast<int64_t>(c.target.alignment.convH.value);
    const int64_t unitW = static_cast<int64_t>(c.target.alignment.convW.value);
    const double totalWaste = double(std::max<int64_t>(1, r.summary.paddingWasteBytes));

    struct Item {
        TensorId t;
        int64_t waste;
    };
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
            !normalised[t.id.value])
            items.push_back({t.id, p.wasteBytes});
    }
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.waste > b.waste; });

    size_t perRule[2] = {0, 0};
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
        if (perRule[conv] >= kMaxPerRule)
            continue;
        ++perRule[conv];
        Finding f;
        NodeId owner =
            t.producer.valid() ? t.producer : (t.consumers.empty() ? NodeId{} : t.consumers.front());
        if (owner.valid())
            f.nodes.push_back(owner);
        nlohmann::json rules = nlohmann::json::array();
        for (const auto& d : p.dimRules)
            if (!d.empty())
                rules.push_back(d);
        f.evidence = {{"tensor", t.name},
                      {"shape", t.shape.toString()},
                      {"padded_shape", dimsText(p.dims)},
                      {"padded_dims", rules},
                      {"waste_bytes", p.wasteBytes},
                      {"waste_ratio", p.wasteRatio()},
                      {"alignment", conv ? "H->" + std::to_string(unitH) + ", W->" + std::to_string(unitW) +
                                               ", C->" + std::to_string(unitC)
                                         : "pow2 up to " + std::to_string(int64_t(
                                                               c.target.alignment.generalMaxUnit.value))}};
        f.severity = severityByShare(double(p.wasteBytes), totalWaste);
        // The gain is what this tensor's padding costs: re-estimated as if it were aligned.
        f.fix = {std::make_shared<AssumeEdit>(AssumeEdit::Aligned, std::vector<std::string>{t.name})};
        const bool bigCSmallHW = conv && t.shape.rank() == 4 && t.shape.dims[1] >= 4 * unitC &&
                                 (t.shape.dims[2] < unitH || t.shape.dims[3] < unitW) &&
                                 p.wasteRatio() >= 0.5;
        if (bigCSmallHW) {
            f.rule = "G4.3";
            f.title = "Large C on small H/W: '" + t.name + "' " + t.shape.toString() + " pads to " +
                      dimsText(p.dims) + " (" + std::to_string(int(p.wasteRatio() * 100)) + "% padding)";
            f.recommendation =
                "Put large extents on the dims with the larger alignment units: avoid a very large C "
                "with very small H and W (e.g. move channels into W with a Reshape before the "
                "BPU-heavy part, or keep spatial size until later).";
        } else {
            f.rule = conv ? "G4.2" : "G4.1";
            f.title = "Padding wastes " + std::to_string(int(p.wasteRatio() * 100)) + "% of '" + t.name +
                      "' " + t.shape.toString() + " -> " + dimsText(p.dims);
            f.recommendation = conv
                                   ? "Choose conv channel counts that are multiples of " +
                                         std::to_string(unitC) + ", H multiples of " + std::to_string(unitH) +
                                         " and W multiples of " + std::to_string(unitW) + "."
                                   : "Align each dimension to a power of two (or the general unit).";
            // A conv's output channels are the one dim the user can change directly.
            if (conv && owner.valid() && g.node(owner).opType == "Conv" && t.shape.dims[1] % unitC != 0) {
                int64_t up = roundUp(t.shape.dims[1], unitC);
                f.alternativeFix = {std::make_shared<SetChannelsEdit>(g.node(owner).name, up)};
                f.recommendation += " Here: " + std::to_string(t.shape.dims[1]) + " -> " +
                                    std::to_string(up) + " channels uses the padding for real work.";
            }
        }
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
