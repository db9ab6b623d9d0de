// SPDX-License-Identifier: MIT
// Sections 2 (findings ranked by estimated gain, with the guide's rule text) and 3 (hotspots).
#include "ChartData.h"
#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/edit/Edit.h"
#include "core/edit/EditError.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace bpu::report::detail {

namespace {

std::string nodeList(const Graph& g, const std::vector<NodeId>& ids, size_t shown) {
    std::string out;
    for (size_t i = 0; i < ids.size() && i < shown; ++i)
        out += (i ? ", " : "") + g.node(ids[i]).name;
    if (ids.size() > shown)
        out += ", ... " + std::to_string(ids.size() - shown) + " more";
    return out.empty() ? "-" : out;
}

std::string fixText(const nlohmann::json& fix) {
    if (fix.is_null() || !fix.contains("edits"))
        return "no automatic what-if fix";
    try {
        std::string out;
        for (const auto& e : editsFromJson(fix))
            out += (out.empty() ? "" : "; ") + e->describe();
        return out.empty() ? "none" : out;
    } catch (const EditError& e) {
        return std::string("not applicable: ") + e.what();
    }
}

std::string gainPercent(const Finding& f, double perImageMs) {
    if (!f.estimatedGainMs || perImageMs <= 0)
        return "-";
    return fmt::percent(*f.estimatedGainMs / perImageMs);
}

std::string ruleLabel(const GuideRules& rules, const std::string& id) {
    const GuideRule* r = rules.find(id);
    return r ? id + " " + r->title : id;
}

} // namespace

Section findingsSection(const Context& c) {
    Section sec;
    sec.id = "findings";
    sec.title = "Findings ranked by estimated gain";
    const auto& findings = c.r.findings;
    const double perImage = c.c.perImageMs;
    if (findings.empty()) {
        sec.blocks.push_back(
            Note{"The analysis raised no finding for this model on " + c.t.displayName + "."});
        return sec;
    }
    sec.blocks.push_back(Paragraph{
        std::to_string(findings.size()) +
        " findings, each tied to a rule of the S100 design guide. The gain is "
        "what the cost model estimates per image when the finding's fix is applied to a copy of the model (" +
        fmt::ms(perImage) +
        " ms per image now); gains of different findings overlap and do not simply add up. "
        "Findings without an automatic fix have no gain estimate and rank by severity."});

    TableBlock ranked;
    ranked.caption = "All findings";
    ranked.table = makeTable(
        {"#", "Rule", "Severity", "Finding", "Gain (ms)", "Gain (%)", "Nodes"},
        {Align::Right, Align::Left, Align::Left, Align::Left, Align::Right, Align::Right, Align::Right});
    ranked.table.widths = {0.45, 0.65, 0.85, 6, 1, 0.9, 0.7};
    for (size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        ranked.table.rows.push_back({std::to_string(i + 1), f.rule, f.severity, f.title,
                                     f.estimatedGainMs ? fmt::ms(*f.estimatedGainMs) : "-",
                                     gainPercent(f, perImage), std::to_string(f.nodes.size())});
    }
    sec.blocks.push_back(ranked);

    std::map<std::string, size_t> quotedAt; // rule id -> finding number whose block quotes its text
    // Details for the top findings, at most kPerRule of one rule (a model often has many alike padding
    // findings); the ranked table above lists them all.
    constexpr int kPerRule = 3;
    std::map<std::string, int> perRule;
    size_t detailed = 0;
    for (size_t i = 0; i < findings.size() && detailed < c.in.detailedFindings; ++i) {
        const Finding& f = findings[i];
        if (perRule[f.rule]++ >= kPerRule)
            continue;
        ++detailed;
        sec.blocks.push_back(Heading{3, "#" + std::to_string(i + 1) + " [" + f.rule + "] " + f.title});
        KeyValues kv;
        kv.items = {{"Rule", ruleLabel(c.rules, f.rule)},
                    {"Severity", f.severity},
                    {"Estimated gain", f.estimatedGainMs ? fmt::ms(*f.estimatedGainMs) + " ms per image (" +
                                                               gainPercent(f, perImage) + " of " +
                                                               fmt::ms(perImage) + " ms)"
                                                         : std::string("not estimated")},
                    {"Affected nodes", std::to_string(f.nodes.size()) + ": " + nodeList(c.g, f.nodes, 8)},
                    {"Recommendation", f.recommendation},
                    {"What-if fix", fixText(f.fix)}};
        sec.blocks.push_back(kv);
        if (f.evidence.is_object() && !f.evidence.empty()) {
            KeyValues ev{"Evidence", {}};
            for (auto it = f.evidence.begin(); it != f.evidence.end(); ++it)
                ev.items.push_back({it.key(), fmt::jsonText(it.value(), 6)});
            sec.blocks.push_back(ev);
        }
        auto q = quotedAt.find(f.rule);
        if (q == quotedAt.end()) {
            quotedAt[f.rule] = i + 1;
            if (const GuideRule* rule = c.rules.find(f.rule))
                sec.blocks.push_back(RuleText{rule->id, rule->title, rule->text});
        } else {
            sec.blocks.push_back(
                Note{"Rule " + f.rule + " is quoted under finding #" + std::to_string(q->second) + "."});
        }
    }
    if (detailed < findings.size())
        sec.blocks.push_back(
            Note{std::to_string(findings.size() - detailed) + " of the " + std::to_string(findings.size()) +
                 " findings are in the table above only (details for the top " +
                 std::to_string(c.in.detailedFindings) + ", at most " + std::to_string(kPerRule) +
                 " per rule); `analyze --json` carries every finding's evidence."});
    return sec;
}

Section hotspotsSection(const Context& c) {
    Section sec;
    sec.id = "hotspots";
    sec.title = "Hotspots";
    std::vector<NodeId> ids = c.g.topoOrder;
    std::stable_sort(ids.begin(), ids.end(), [&](NodeId a, NodeId b) {
        return c.c.nodes[a.value].latencyUs > c.c.nodes[b.value].latencyUs;
    });
    if (ids.size() > c.in.hotspots)
        ids.resize(c.in.hotspots);
    double share = 0;
    for (NodeId id : ids)
        share += c.c.nodes[id.value].share;
    sec.blocks.push_back(
        Paragraph{"The " + std::to_string(ids.size()) +
                  " nodes with the largest estimated latency "
                  "take " +
                  fmt::percent(share) +
                  " of the model's time. Intensity is padded MACs "
                  "per DDR byte; at or above the ridge (" +
                  fmt::number(c.t.ridgeIntensity()) +
                  ") a dense conv is compute-bound. Waste is the share of the node's padded output "
                  "bytes that alignment padding adds."});
    TableBlock tb;
    tb.caption = "Top " + std::to_string(ids.size()) + " nodes by estimated latency";
    tb.table = makeTable(
        {"#", "Node", "Op", "Placement", "Bound", "Latency (us)", "Share", "Intensity", "Waste", "MACs"},
        {Align::Right, Align::Left, Align::Left, Align::Left, Align::Left, Align::Right, Align::Right,
         Align::Right, Align::Right, Align::Right});
    tb.table.widths = {0.4, 4.2, 1.5, 1, 1.1, 1.1, 0.9, 1, 0.9, 1};
    for (size_t i = 0; i < ids.size(); ++i) {
        const NodeId id = ids[i];
        const NodeAnalysis& a = c.r.nodes[id.value];
        const int64_t waste = nodeWasteBytes(c.g, c.r, id);
        tb.table.rows.push_back({std::to_string(i + 1), c.g.node(id).name, c.g.node(id).opType,
                                 placementName(a.placement), boundName(a.bound),
                                 fmt::us(c.c.nodes[id.value].latencyUs),
                                 fmt::percent(c.c.nodes[id.value].share),
                                 a.macs > 0 ? fmt::number(std::round(a.intensity * 10) / 10) : "-",
                                 waste > 0 ? fmt::percent(nodeWasteRatio(c.g, c.r, id)) : "-",
                                 a.macs > 0 ? fmt::si(double(a.macs)) : "-"});
    }
    sec.blocks.push_back(tb);
    return sec;
}

} // namespace bpu::report::detail
