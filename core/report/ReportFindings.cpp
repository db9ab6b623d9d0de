// SPDX-License-Identifier: MIT
// Sections 2 (findings ranked by estimated gain, with the guide's rule text) and 3 (hotspots).
#include "ChartData.h"
#include "EvidenceText.h"
#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/advice/FindingText.h"
#include "core/analysis/DdrReason.h"
#include "core/cost/Hotspots.h"
#include "core/edit/Edit.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace bpu::report::detail {

namespace {

/// Items of an edit's list spelled out before the rest are counted: a grouped finding's fix names every node
/// of the group (114 for yolov8n's SiLU layers), which the node table below already lists.
constexpr size_t kFixListItems = 3;

/// The fix's edits as text. Long fixes (a placement override per CPU node: hundreds of edits) are summarised
/// per kind of edit: "set_placement placement=BPU on 185 nodes: a, b, c, ... 182 more".
std::string fixText(const EditList& edits) {
    if (edits.empty())
        return "no automatic what-if fix";
    constexpr size_t kListed = 4; // edits spelled out before they are summarised
    if (edits.size() <= kListed) {
        std::string out;
        for (const auto& e : edits)
            out += (out.empty() ? "" : "; ") + e->describe(kFixListItems);
        return out;
    }
    // Group by the edit without its node: one line per kind, with the nodes it touches.
    struct Kind {
        std::string text;
        std::vector<std::string> nodes;
    };
    std::vector<Kind> kinds;
    for (const auto& e : edits) {
        // The kind is the edit's own text (Edit::describe) without its " node=NAME".
        std::string text = e->describe(kFixListItems);
        const nlohmann::json j = e->toJson();
        std::string node;
        if (j.contains("node") && j["node"].is_string()) {
            node = j["node"].get<std::string>();
            const std::string part = " node=" + node;
            if (const size_t at = text.find(part); at != std::string::npos)
                text.erase(at, part.size());
        }
        auto k = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& x) { return x.text == text; });
        if (k == kinds.end())
            k = kinds.insert(kinds.end(), Kind{text, {}});
        if (!node.empty())
            k->nodes.push_back(node);
    }
    // "N edits: " only when there are several kinds; one kind already says how many nodes it touches.
    std::string out = kinds.size() > 1 ? std::to_string(edits.size()) + " edits: " : std::string();
    for (size_t i = 0; i < kinds.size(); ++i) {
        const Kind& k = kinds[i];
        out += (i ? "; " : "") + k.text;
        if (k.nodes.empty())
            continue;
        out += " on " + std::to_string(k.nodes.size()) + (k.nodes.size() == 1 ? " node: " : " nodes: ");
        for (size_t n = 0; n < k.nodes.size() && n < kFixListItems; ++n)
            out += (n ? ", " : "") + k.nodes[n];
        if (k.nodes.size() > kFixListItems)
            out += ", ... " + fmt::count(static_cast<int64_t>(k.nodes.size() - kFixListItems)) + " more";
    }
    return out;
}

/// The finding's evidence as labelled lines. Values that repeat the node table (the node's name, a list of
/// node names) are left to the table.
std::vector<std::pair<std::string, std::string>> evidenceItems(const nlohmann::json& evidence) {
    std::vector<std::pair<std::string, std::string>> out;
    if (!evidence.is_object())
        return out;
    for (auto it = evidence.begin(); it != evidence.end(); ++it) {
        if (it.key() == "node" || it.key() == "nodes" || it.key() == "alternative_fix")
            continue;
        // A list cut to its first items (G4.x tensors, G3/G6.6 occurrences) says how many it stands for in
        // its own "... N more", so its count is not a line of its own.
        if (it.key().ends_with("_total")) {
            const auto list = evidence.find(it.key().substr(0, it.key().size() - 6));
            if (list != evidence.end() && list->is_array())
                continue;
        }
        const auto total = evidence.find(it.key() + "_total");
        const size_t all = total != evidence.end() && total->is_number_unsigned() ? total->get<size_t>() : 0;
        out.emplace_back(evidenceLabel(it.key()), evidenceValue(it.key(), it.value(), all));
    }
    return out;
}

std::string gainPercent(const Finding& f, double perImageMs) {
    if (!f.estimatedGainMs || perImageMs <= 0)
        return "-";
    return fmt::percent(*f.estimatedGainMs / perImageMs);
}

/// MACs per byte: one decimal below 1000, whole numbers with separators above ("526,600", never "5.266e+05").
std::string intensityText(double v) {
    return fmt::number(v >= 1000 ? std::round(v) : std::round(v * 10) / 10);
}

std::string ruleLabel(const GuideRules& rules, const std::string& id) {
    const GuideRule* r = rules.find(id);
    return r ? id + " " + r->title : id;
}

} // namespace

TableBlock nodeCostTable(const Context& c, std::span<const NodeId> nodes, std::string caption, size_t maxRows,
                         bool waste) {
    TableBlock tb;
    tb.caption = std::move(caption);
    std::vector<std::string> headers{"Node", "Op", "Placement", "Latency (us)", "Share"};
    std::vector<Align> align{Align::Left, Align::Left, Align::Left, Align::Right, Align::Right};
    if (waste) {
        headers.push_back("Waste");
        align.push_back(Align::Right);
    }
    tb.table = makeTable(std::move(headers), std::move(align));
    tb.table.widths =
        waste ? std::vector<double>{5, 1.6, 1, 1.1, 0.9, 0.9} : std::vector<double>{5.2, 1.6, 1, 1.4, 0.8};
    for (size_t i = 0; i < nodes.size() && i < maxRows; ++i) {
        const NodeId id = nodes[i];
        std::vector<std::string> row{
            c.g.node(id).name, c.g.node(id).opType, placementName(c.r.nodes[id.value].placement),
            fmt::us(c.c.nodes[id.value].latencyUs), fmt::percent(c.c.nodes[id.value].share)};
        if (waste) {
            const double w = nodeWasteRatio(c.g, c.r, id);
            row.push_back(std::isnan(w) ? "-" : fmt::percent(w));
        }
        tb.table.rows.push_back(std::move(row));
    }
    if (nodes.size() > maxRows) {
        std::vector<std::string> more(tb.table.headers.size());
        more[0] =
            "... " + fmt::plural(int64_t(nodes.size() - maxRows), "more node") + " (all in analyze --json)";
        tb.table.rows.push_back(std::move(more));
    }
    return tb;
}

std::string findingGainUs(const Finding& f) {
    return f.estimatedGainMs ? fmt::gainUs(*f.estimatedGainMs) : std::string("-");
}

std::string findingWasteUs(const Finding& f) {
    return f.wasteUpperBoundMs ? "<= " + fmt::gainUs(*f.wasteUpperBoundMs) : std::string("-");
}

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
        " findings, each tied to a rule of the S100 design guide. A fix is a concrete change the model's "
        "owner can make (a group count, a batch, a cut, a placement, a precision, an activation swapped for "
        "ReLU, a transform pair taken out); its gain is what the cost "
        "model estimates per image with that change made (" +
        fmt::ms(perImage) +
        " ms per image now), and its severity is that gain's share. Gains of different findings overlap and "
        "do not simply add up. The waste column is what the waste itself costs, estimated by an idealized "
        "what-if that removes it outright: an upper bound on what any fix saves, never a fix's gain. A "
        "finding without a concrete fix is Low and ranks after every finding whose fix pays."});

    TableBlock ranked;
    ranked.caption = "All findings";
    ranked.table =
        makeTable({"#", "Rule", "Severity", "Finding", "Fix gain (us)", "Gain (%)", "Waste (us)", "Nodes"},
                  {Align::Right, Align::Left, Align::Left, Align::Left, Align::Right, Align::Right,
                   Align::Right, Align::Right});
    ranked.table.widths = {0.45, 0.65, 0.85, 5.2, 1, 0.9, 1, 0.7};
    for (size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        ranked.table.rows.push_back({std::to_string(i + 1), ruleName(f.rule), severityText(f),
                                     fmt::prose(f.title), findingGainUs(f), gainPercent(f, perImage),
                                     findingWasteUs(f), std::to_string(f.nodes.size())});
    }
    sec.blocks.push_back(ranked);
    if (const std::string folded = foldedSummaryText(c.r.foldedFindings); !folded.empty())
        sec.blocks.push_back(Note{fmt::prose(folded) + "."});
    if (std::any_of(findings.begin(), findings.end(),
                    [](const Finding& f) { return f.estimatedGainMs && *f.estimatedGainMs < 0; }))
        sec.blocks.push_back(Note{
            "A negative gain means the finding's fix applied on its own makes the estimate slower. For "
            "G1.2 this happens when operators moved to the BPU keep CPU neighbours: every new CPU<->BPU "
            "boundary adds a switch and Q/DQ passes, so such a fix pays off only together with the fixes "
            "for its neighbours."});

    std::map<RuleId, size_t> quotedAt; // rule -> number of the finding whose block quotes its text
    // Details for the top findings, at most kPerRule of one rule (a model often has many alike padding
    // findings); the ranked table above lists them all.
    constexpr int kPerRule = 3;
    std::map<RuleId, int> perRule;
    size_t detailed = 0;
    for (size_t i = 0; i < findings.size() && detailed < c.in.detailedFindings; ++i) {
        const Finding& f = findings[i];
        if (perRule[f.rule]++ >= kPerRule)
            continue;
        ++detailed;
        sec.blocks.push_back(
            Heading{3, "#" + std::to_string(i + 1) + " " + ruleName(f.rule) + ": " + fmt::prose(f.title)});
        KeyValues kv;
        kv.items = {{"Rule", ruleLabel(c.rules, ruleName(f.rule))},
                    {"Severity", severityText(f)},
                    {"Recommendation", fmt::prose(f.recommendation)},
                    {"Fix", f.fix.empty()
                                ? std::string("none: no concrete change is estimated for this finding")
                                : fixText(f.fix)}};
        if (f.estimatedGainMs)
            kv.items.push_back({"Fix gain", fmt::duration(*f.estimatedGainMs) + " per image (" +
                                                gainPercent(f, perImage) + " of " + fmt::ms(perImage) +
                                                " ms)"});
        else if (!f.fix.empty())
            kv.items.push_back({"Fix gain", "not estimated"});
        if (const std::string trust = unprovenProse(f); !trust.empty())
            kv.items.push_back({"Unproven", trust});
        if (f.fixEffects) {
            const std::string effects = fixEffectsText(*f.fixEffects);
            kv.items.push_back({"Fix costs besides time", effects.empty() ? std::string("none") : effects});
        }
        if (!f.whatIf.empty())
            kv.items.push_back({"What-if (idealized)", fixText(f.whatIf)});
        if (f.wasteUpperBoundMs)
            kv.items.push_back(
                {"Cost of this waste (upper bound)",
                 fmt::duration(*f.wasteUpperBoundMs) + " per image, if it were removed outright"});
        if (!f.alternativeFix.empty())
            kv.items.push_back({"Alternative fix", fixText(f.alternativeFix)});
        // One change, one finding: the other rules that proposed it, and the alike findings grouped here.
        for (const auto& p : f.also)
            kv.items.push_back({"Also", fmt::prose(findingPartText(p))});
        if (!f.occurrences.empty()) {
            constexpr size_t kShown = 5;
            std::string list;
            for (size_t k = 0; k < f.occurrences.size() && k < kShown; ++k)
                list += (k ? "; " : "") + findingPartText(f.occurrences[k]);
            if (f.occurrences.size() > kShown)
                list += "; ... " + std::to_string(f.occurrences.size() - kShown) + " more (analyze --json)";
            kv.items.push_back(
                {"Occurrences (" + std::to_string(f.occurrences.size()) + ")", fmt::prose(list)});
        }
        for (const auto& [key, value] : evidenceItems(f.evidence))
            kv.items.push_back({key, value});
        sec.blocks.push_back(kv);
        if (!f.nodes.empty())
            sec.blocks.push_back(
                nodeCostTable(c, f.nodes, "Nodes of finding: " + fmt::plural(int64_t(f.nodes.size()), "node"),
                              kNodeRows, false));
        auto q = quotedAt.find(f.rule);
        if (q == quotedAt.end()) {
            quotedAt[f.rule] = i + 1;
            if (const GuideRule* rule = c.rules.find(ruleName(f.rule)))
                sec.blocks.push_back(RuleText{rule->id, rule->title, rule->text});
        } else {
            sec.blocks.push_back(Note{"Rule " + std::string(ruleName(f.rule)) + " is quoted under finding #" +
                                      std::to_string(q->second) + "."});
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
    const std::vector<HotspotItem> items = hotspots(c.g, c.c, c.in.hotspots);
    double share = 0;
    int rows = 0;
    for (const auto& it : items) {
        share += it.share;
        rows += it.isRow();
    }
    std::string text =
        "The " + std::to_string(items.size()) + " largest items of the estimated latency take " +
        fmt::percent(share) +
        " of the model's time. Intensity is padded MACs per DDR byte; at or above the ridge (" +
        fmt::number(c.t.ridgeIntensity()) +
        ") a dense conv is compute-bound. Waste is the share of the node's padded output bytes "
        "that alignment padding adds.";
    if (rows > 0)
        text +=
            " Passes over whole tensors (quantize, dequantize, requantize, the input conversion), CPU<->BPU "
            "transitions and the runtime's per-inference overhead are rows of their own, not part of a "
            "neighbouring node's time; the formula of each is in the JSON's cost_rows.";
    sec.blocks.push_back(Paragraph{text});
    TableBlock tb;
    tb.caption = "Top " + std::to_string(items.size()) + " items by estimated latency";
    tb.table = makeTable({"#", "Node or pass", "Op", "Placement", "Bound", "Latency (us)", "Share",
                          "Intensity", "Waste", "MACs"},
                         {Align::Right, Align::Left, Align::Left, Align::Left, Align::Left, Align::Right,
                          Align::Right, Align::Right, Align::Right, Align::Right});
    tb.table.widths = {0.4, 4.4, 1.6, 1, 1.1, 1.1, 0.9, 1, 0.9, 1};
    for (size_t i = 0; i < items.size(); ++i) {
        const HotspotItem& it = items[i];
        if (it.isRow()) {
            const CostRow& row = c.c.rows[static_cast<size_t>(it.row)];
            tb.table.rows.push_back({std::to_string(i + 1), row.label, costRowKindName(row.kind),
                                     row.onBpu                             ? "BPU"
                                     : row.kind == CostRowKind::Transition ? "-"
                                                                           : "CPU",
                                     "-", fmt::us(it.us), fmt::percent(it.share), "-", "-", "-"});
            continue;
        }
        const NodeId id = it.node;
        const NodeAnalysis& a = c.r.nodes[id.value];
        // A fused group's head carries the group's whole layer: the op column says which ops it runs.
        const FusedGroup* grp = c.r.group(a.fusionGroup);
        tb.table.rows.push_back({std::to_string(i + 1), c.g.node(id).name,
                                 grp && grp->nodes.front() == id ? grp->pattern : c.g.node(id).opType,
                                 placementName(a.placement), boundName(a.bound), fmt::us(it.us),
                                 fmt::percent(it.share), a.macs > 0 ? intensityText(a.intensity) : "-",
                                 fmt::percent(nodeWasteRatio(c.g, c.r, id)),
                                 a.macs > 0 ? fmt::si(double(a.macs)) : "-"});
    }
    sec.blocks.push_back(tb);
    // Why the top BPU layers' traffic goes through DDR: the residency rule and its parameters (issue 52).
    std::string ddr;
    int layers = 0;
    for (const auto& it : items) {
        if (it.isRow() || c.r.nodes[it.node.value].placement != Placement::BPU || layers >= 5)
            continue;
        std::string list;
        int shown = 0;
        for (const DdrTensor& d : layerDdrTraffic(c.g, c.r, c.t, it.node, DdrWording::Plain)) {
            if (d.reason.find("SRAM budget") == std::string::npos || shown++ >= 3)
                continue; // the model's own I/O and hand-overs go through DDR by definition
            list += (list.empty() ? "" : "; ") + c.g.tensor(d.tensor).name + " (" + d.reason + ")";
        }
        if (list.empty())
            continue;
        ++layers;
        ddr += (ddr.empty() ? "" : " ") + c.g.node(it.node).name + ": " + list + ".";
    }
    if (!ddr.empty())
        sec.blocks.push_back(Paragraph{"Feature maps the top layers move through DDR, by the residency rule "
                                       "(the SRAM budget and the streaming window of section 8's profile): " +
                                       ddr});
    return sec;
}

} // namespace bpu::report::detail
