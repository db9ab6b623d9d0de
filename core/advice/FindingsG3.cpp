// SPDX-License-Identifier: MIT
// G3: fuse what can be fused.
#include "FindingUtil.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"

namespace bpu {

void findFusionIssues(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    for (const auto& m : r.missed) {
        // The QAT plugin's "the Add's first input comes from the fused conv" is a rule about module code; in
        // an ONNX graph the operand order of an Add means nothing to the compiler, so it is no advice. (The
        // cost model still charges such an Add as its own layer: the calibration was fitted that way, and
        // fusing it needs a refit, docs/calibration.md.)
        if (m.reason.rfind("the Add's first input", 0) == 0) // FusionPass.cpp's operand-order reason
            continue;
        Finding f;
        f.rule = RuleId::G3;
        f.nodes = m.nodes;
        std::string chain;
        for (NodeId id : m.nodes)
            chain += (chain.empty() ? "" : " -> ") + g.node(id).opType;
        f.cause = "missed fusion at '" + g.node(m.nodes.front()).name + "'";
        f.title = "Missed fusion " + chain + " at '" + g.node(m.nodes.front()).name + "'";
        f.evidence = {{"reason", m.reason}, {"chain", chain}};
        f.severity = Severity::Medium;
        f.recommendation = "Restructure so the chain fuses (" + m.reason +
                           "); an unfused operator pays its own load/store and layer cost.";
        f.whatIf = {std::make_shared<FuseEdit>(g.node(m.nodes.front()).name, true)};
        r.findings.push_back(std::move(f));
    }
    // Groups kept apart by the user (or an unfused export) cost per-layer overhead.
    std::vector<NodeId> unfused;
    nlohmann::json heads = nlohmann::json::array();
    for (const auto& grp : r.groups)
        if (!grp.fused) {
            unfused.insert(unfused.end(), grp.nodes.begin(), grp.nodes.end());
            heads.push_back(g.node(grp.nodes.front()).name);
        }
    if (!unfused.empty()) {
        Finding f;
        f.rule = RuleId::G3;
        f.cause = "fusable groups kept apart";
        f.title = std::to_string(heads.size()) + " fusable groups are not fused";
        f.nodes = unfused;
        f.evidence = {{"groups", heads.size()}, {"heads", heads}};
        f.severity = Severity::High;
        f.recommendation = "Fuse everything that can be fused (JIT mode fuses automatically); check a fusion "
                           "undone for accuracy against what it costs.";
        f.whatIf = {std::make_shared<FuseAllEdit>()};
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
