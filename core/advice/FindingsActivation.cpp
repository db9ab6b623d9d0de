// SPDX-License-Identifier: MIT
// G3: activations the BPU runs as layers of their own after a conv. The fusable chains end in ReLU or
// ReLU6 (Conv[+BN][+Add][+ReLU|ReLU6], shared/domain/s100-facts.md "Fusion"); any other activation is a LUT
// and/or elementwise layer with its own load, store and fixed cost — SiLU is two (a Sigmoid LUT and a Mul).
#include "FindingUtil.h"
#include "core/edit/ActivationEdits.h"
#include "core/edit/OptionEdits.h"

#include <cstdio>

#include <map>
#include <set>

namespace bpu {

namespace {

// The node that wrote `t` is conv-like (directly, or as the last member of a fused conv group).
bool fromConv(const Graph& g, const AnalysisResult& r, TensorId t) {
    if (!t.valid() || !g.tensor(t).producer.valid())
        return false;
    const NodeId p = g.tensor(t).producer;
    const NodeAnalysis& a = r.nodes[p.value];
    if (const FusedGroup* grp = r.group(a.fusionGroup); grp && grp->fused)
        return g.node(grp->nodes.front()).opType == "Conv" ||
               g.node(grp->nodes.front()).opType == "ConvTranspose";
    return g.node(p).opType == "Conv" || g.node(p).opType == "ConvTranspose";
}

struct Occurrence {
    NodeId conv;
    std::vector<NodeId> nodes; ///< the activation's own layers
};

} // namespace

void findSeparateActivations(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    std::map<std::string, std::vector<Occurrence>> byKind;
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        if (r.nodes[id.value].placement != Placement::BPU || !n.domain.empty() || n.outputs.empty())
            continue;
        // x * Sigmoid(x) (SiLU / Swish) or x * HardSigmoid(x) (HardSwish written out)
        if (n.opType == "Mul" && n.inputs.size() == 2 && n.inputs[0].valid() && n.inputs[1].valid()) {
            for (int k = 0; k < 2; ++k) {
                const TensorId x = n.inputs[k], s = n.inputs[1 - k];
                const NodeId sp = g.tensor(s).producer;
                if (!sp.valid() || r.nodes[sp.value].placement != Placement::BPU)
                    continue;
                const Node& sn = g.node(sp);
                if ((sn.opType != "Sigmoid" && sn.opType != "HardSigmoid") || sn.inputs.empty() ||
                    sn.inputs[0] != x || !fromConv(g, r, x) || g.tensor(s).consumers.size() != 1)
                    continue;
                const std::string kind =
                    sn.opType == "Sigmoid" ? "SiLU (Sigmoid + Mul)" : "HardSwish (HardSigmoid + Mul)";
                byKind[kind].push_back({g.tensor(x).producer, {sp, id}});
                break;
            }
        } else if (isOneOpActivation(n.opType) && !n.inputs.empty() && fromConv(g, r, n.inputs[0])) {
            byKind[n.opType].push_back({g.tensor(n.inputs[0]).producer, {id}});
        }
    }
    const double total = bpuRooflineUs(c);
    for (const auto& [kind, occ] : byKind) {
        double us = 0;
        nlohmann::json perConv = nlohmann::json::array();
        std::vector<NodeId> nodes;
        std::vector<std::string> names;
        for (const Occurrence& o : occ) {
            double one = 0;
            for (NodeId n : o.nodes) {
                one += rooflineUs(c, n);
                nodes.push_back(n);
                names.push_back(g.node(n).name);
            }
            us += one;
            if (perConv.size() < kEvidenceItems) {
                nlohmann::json layers = nlohmann::json::array();
                for (NodeId n : o.nodes)
                    layers.push_back(g.node(n).name);
                perConv.push_back({{"conv", g.node(o.conv).name},
                                   {"layers", std::move(layers)},
                                   {"elements", r.metrics[o.nodes.back().value].outputElements},
                                   {"roofline_us", one}});
            }
        }
        const double share = total > 0 ? us / total : 0;
        if (share < c.target.activationShareMin.value)
            continue;
        char pct[64];
        std::snprintf(pct, sizeof pct, "%.0f%%", share * 100);
        Finding f;
        f.rule = RuleId::G3;
        f.cause = "activation " + kind;
        f.nodes = nodes;
        const size_t layersPer = occ.front().nodes.size();
        f.title = kind + " after " + std::to_string(occ.size()) + " conv" + (occ.size() > 1 ? "s" : "") +
                  " runs as " + std::to_string(layersPer) + " separate BPU layer" +
                  (layersPer > 1 ? "s" : "") + " each (" + pct + " of the BPU time)";
        f.evidence = {{"activation", kind},
                      {"convs", occ.size()},
                      {"roofline_us", us},
                      {"bpu_roofline_us", total},
                      {"share_of_bpu_time", share},
                      {"share_min", c.target.activationShareMin.value},
                      {"occurrences", perConv},
                      {"occurrences_total", occ.size()},
                      {"fusable", "Conv[+BN][+Add][+ReLU|ReLU6]"}};
        f.severity =
            severityForShare(share, c.target.severityHighShare.value, c.target.severityMediumShare.value);
        f.recommendation =
            "The BPU's published fusion list names only ReLU / ReLU6 after a conv (Conv+BN+Add+ReLU); " +
            kind +
            " is taken to run as a LUT / elementwise layer of its own after every conv, with its own load, "
            "store and fixed cost (an assumption no published source states). Where accuracy allows, train "
            "with ReLU or ReLU6 instead (re-train or fine-tune, then "
            "check "
            "accuracy). The fix swaps them for ReLU" +
            std::string(kind.find("HardSwish") != std::string::npos ? "6" : "") +
            " (replace_activation); the cost of this waste (an upper bound) treats these layers as fused "
            "away.";
        f.whatIf = {std::make_shared<AssumeEdit>(AssumeEdit::Removed, names)};
        // The fusion list names ReLU/ReLU6; that nothing else fuses is our reading of it, no source says so.
        f.assumes = {"lut_activation_separate_layer"};
        // The change the guide asks for: the activation becomes ReLU (ReLU6 for the HardSwish family, as
        // MobileNet's), fused into its conv; its gain is that model re-estimated.
        std::vector<std::string> heads;
        for (const Occurrence& o : occ)
            heads.push_back(g.node(o.nodes.back()).name);
        const bool hard = kind.find("HardSwish") != std::string::npos;
        f.fix = {std::make_shared<ReplaceActivationEdit>(std::move(heads),
                                                         hard ? ReplaceActivationEdit::Target::Relu6
                                                              : ReplaceActivationEdit::Target::Relu)};
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
