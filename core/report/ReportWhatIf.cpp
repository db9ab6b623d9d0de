// SPDX-License-Identifier: MIT
// Section 6: the applied what-if edits and a before/after row per changed node.
#include "ChartData.h"
#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/analysis/AnalysisResult.h"
#include "core/cost/NodeDeltas.h"
#include "core/edit/EditList.h"

#include <algorithm>
#include <cmath>

namespace bpu::report::detail {

namespace {

std::string outShape(const Graph& g, NodeId id) {
    const Node& n = g.node(id);
    return n.outputs.empty() || !n.outputs[0].valid() ? "-" : g.tensor(n.outputs[0]).shape.toString();
}

std::string pair(const std::string& before, const std::string& after) {
    return before == after ? after : before + " -> " + after;
}

struct Change {
    NodeId now, before;
    double deltaUs;
};

/// Items of an edit's list shown in the table before the rest are counted (Edit::describe's cap): a fix for
/// a grouped finding names every node of the group, 114 for yolov8n's SiLU layers.
constexpr size_t kEditListItems = 3;

/// A JSON value with its long arrays cut the same way: ["a","b","c", ... 111 more].
std::string cutJson(const nlohmann::json& v) {
    if (!v.is_array() || v.size() <= kEditListItems)
        return v.dump();
    std::string out = "[";
    for (size_t i = 0; i < kEditListItems; ++i)
        out += (i ? "," : "") + v[i].dump();
    return out + ", ... " + fmt::count(static_cast<int64_t>(v.size() - kEditListItems)) + " more]";
}

/// An edit as JSON text with "op" first (nlohmann sorts keys), as people write it in an edit file; a list
/// longer than kEditListItems is cut (the edits file has it whole).
std::string editJson(const nlohmann::json& e) {
    if (!e.is_object() || !e.contains("op"))
        return e.dump();
    std::string out = "{\"op\":" + e["op"].dump();
    for (auto it = e.begin(); it != e.end(); ++it)
        if (it.key() != "op")
            out += ",\"" + it.key() + "\":" + cutJson(it.value());
    return out + "}";
}

} // namespace

Section whatIfSection(const Context& c) {
    Section sec;
    sec.id = "whatif";
    sec.title = "What-if";
    if (!c.in.baseline) {
        sec.blocks.push_back(
            Note{"No what-if edits were applied: every number in this report is the model as "
                 "imported. Pass --edits FILE (the same edit list the GUI saves) to compare."});
        return sec;
    }
    const Session& base = *c.in.baseline;
    const Graph& bg = base.graph();
    const AnalysisResult& br = base.analysis();
    const CostEstimate& bc = base.cost();

    sec.blocks.push_back(Paragraph{
        std::to_string(c.in.edits.size()) + " edit(s) applied in order" +
        (c.in.baselineNote.empty() ? std::string() : " to the baseline, " + c.in.baselineNote) +
        ". Estimated FPS " + fmt::fps(bc.fps) + " -> " + fmt::fps(c.c.fps) + ", latency per image " +
        fmt::ms(bc.perImageMs) + " -> " + fmt::ms(c.c.perImageMs) + " ms (" +
        (bc.perImageMs > 0 ? fmt::signedPercent((c.c.perImageMs - bc.perImageMs) / bc.perImageMs) : "-") +
        ")."});

    TableBlock edits;
    edits.caption = "Applied edits";
    edits.table = makeTable({"#", "Edit", "JSON"}, {Align::Right, Align::Left, Align::Left});
    edits.table.widths = {0.4, 3, 4};
    for (size_t i = 0; i < c.in.edits.size(); ++i)
        edits.table.rows.push_back({std::to_string(i + 1), c.in.edits[i]->describe(kEditListItems),
                                    editJson(c.in.edits[i]->toJson())});
    sec.blocks.push_back(edits);

    // One delta table for every front end (issue 63, NodeDeltas): paired by node name, per image (with a
    // batch edit a node's latency covers a different number of images before and after, and per inference
    // every node would look slower).
    const NodeDeltas deltas(c.g, c.c, bg, bc);
    const bool perImage = deltas.perImage();
    const double divBefore = double(deltas.batchBaseline());
    const double divAfter = double(deltas.batchNow());
    std::vector<Change> changes;
    int added = 0;
    for (NodeId id : c.g.topoOrder) {
        if (deltas.kind(id) == NodeChangeKind::New) {
            ++added;
            continue;
        }
        const NodeId b = deltas.baselineNode(id);
        const double delta = deltas.deltaUs(id);
        const bool changed =
            std::fabs(delta) >= 0.05 || c.r.nodes[id.value].placement != br.nodes[b.value].placement ||
            nodeWasteBytes(c.g, c.r, id) != nodeWasteBytes(bg, br, b) || outShape(c.g, id) != outShape(bg, b);
        if (changed)
            changes.push_back({id, b, delta});
    }
    std::stable_sort(changes.begin(), changes.end(), [](const Change& x, const Change& y) {
        return std::fabs(x.deltaUs) > std::fabs(y.deltaUs);
    });
    const size_t shown = std::min<size_t>(changes.size(), 60);

    TableBlock nodes;
    nodes.caption = "Changed nodes, largest latency change first (" + std::to_string(changes.size()) +
                    " changed" +
                    (shown < changes.size() ? ", " + std::to_string(shown) + " shown" : std::string()) + ")";
    if (perImage)
        nodes.caption += "; latencies per image (batch " + std::to_string(bc.batch) + " -> " +
                         std::to_string(c.c.batch) + ")";
    const std::string unit = perImage ? " (us/img)" : " (us)";
    nodes.table = makeTable({"Node", "Op", "Before" + unit, "After" + unit, "Change" + unit, "Placement",
                             "Output shape", "Waste"},
                            {Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Left,
                             Align::Left, Align::Left});
    nodes.table.widths = {3, 1.2, 0.9, 0.9, 0.9, 1, 3.6, 1.2};
    for (size_t i = 0; i < shown; ++i) {
        const Change& ch = changes[i];
        const double wb = nodeWasteRatio(bg, br, ch.before), wa = nodeWasteRatio(c.g, c.r, ch.now);
        nodes.table.rows.push_back(
            {c.g.node(ch.now).name, c.g.node(ch.now).opType, fmt::us(deltas.baselineUs(ch.now)),
             fmt::us(deltas.nowUs(ch.now)), (ch.deltaUs > 0 ? "+" : "") + fmt::us(ch.deltaUs),
             pair(placementName(br.nodes[ch.before.value].placement),
                  placementName(c.r.nodes[ch.now.value].placement)),
             pair(outShape(bg, ch.before), outShape(c.g, ch.now)),
             pair(std::isnan(wb) ? "-" : fmt::percent(wb), std::isnan(wa) ? "-" : fmt::percent(wa))});
    }
    if (changes.empty())
        sec.blocks.push_back(
            Note{"No node's latency, placement, output shape or padding changed: the edits act on "
                 "model-level costs (Q/DQ passes, transitions, the runtime overhead) only."});
    else
        sec.blocks.push_back(nodes);
    const double levelBefore = bc.qdqUs + bc.transitionUs + bc.runtimeUs;
    const double levelAfter = c.c.qdqUs + c.c.transitionUs + c.c.runtimeUs;
    const double modelLevel = levelAfter / divAfter - levelBefore / divBefore;
    if (std::fabs(modelLevel) >= 0.05 || std::fabs(levelAfter - levelBefore) >= 0.05)
        sec.blocks.push_back(
            Note{"Model-level costs (Q/DQ passes, CPU<->BPU transitions, runtime overhead): " +
                 fmt::us(levelBefore) + " -> " + fmt::us(levelAfter) + " us per inference" +
                 (perImage ? ", " + fmt::us(levelBefore / divBefore) + " -> " +
                                 fmt::us(levelAfter / divAfter) + " us per image"
                           : std::string()) +
                 "."});
    if (added > 0 || !deltas.removed().empty())
        sec.blocks.push_back(
            Note{(added > 0 ? std::to_string(added) + " node(s) exist only after the edits (new: no delta)"
                            : std::string()) +
                 (added > 0 && !deltas.removed().empty() ? "; " : "") +
                 (!deltas.removed().empty()
                      ? std::to_string(deltas.removed().size()) + " node(s) of the baseline are gone (" +
                            fmt::us(deltas.removedUs()) + " us per image before)"
                      : std::string()) +
                 "."});
    return sec;
}

} // namespace bpu::report::detail
