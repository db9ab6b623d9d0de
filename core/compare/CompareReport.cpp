// SPDX-License-Identifier: MIT
// `bpuscope-cli compare --format md|html|pdf`: the comparison as a report document for the existing
// renderers.
#include "CompareOutput.h"

#include "core/report/ReportFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

namespace bpu {

namespace {

using namespace report;

constexpr size_t kDeltaRows = 30;     ///< largest latency deltas shown
constexpr size_t kChangeRows = 60;    ///< shape/padding changes shown
constexpr size_t kUnmatchedRows = 80; ///< unmatched nodes shown per side

std::string nowText() {
    std::time_t now = std::time(nullptr);
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch)
        now = static_cast<std::time_t>(std::strtoll(epoch, nullptr, 10));
    std::tm tm{};
    localtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
    return buf;
}

std::string fileName(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

std::string dimsText(const std::vector<int64_t>& d) {
    if (d.empty())
        return "-";
    std::string s;
    for (size_t i = 0; i < d.size(); ++i)
        s += (i ? "x" : "") + (d[i] < 0 ? std::string("?") : std::to_string(d[i]));
    return s;
}

std::string signedUs(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f", v);
    return buf;
}

std::string signedCount(int64_t v) {
    return v == 0 ? "=" : (v > 0 ? "+" : "-") + fmt::count(v < 0 ? -v : v);
}

Table table(std::vector<std::string> headers, std::vector<Align> align, std::vector<double> widths = {}) {
    Table t;
    t.headers = std::move(headers);
    t.align = std::move(align);
    t.widths = std::move(widths);
    return t;
}

/// A relative change "-4.1%" for a latency or FPS, "=" when equal.
std::string change(double a, double b) {
    if (a == b)
        return "=";
    return a != 0 ? fmt::signedPercent((b - a) / a) : std::string("new");
}

Section summary(const Comparison& c) {
    Section s{"summary", 0, "Summary", {}};
    const LatencyFigures &a = c.a.figures, &b = c.b.figures;
    const double d = c.latencyMsDelta();
    std::string head = fileName(c.b.path) + " (B) ";
    if (std::fabs(d) < 5e-4)
        head += "has the same estimated latency as " + fileName(c.a.path) + " (A): " + fmt::ms(a.latencyMs) +
                " ms";
    else
        head += std::string(d < 0 ? "is faster than " : "is slower than ") + fileName(c.a.path) + " (A) by " +
                fmt::ms(std::fabs(d)) + " ms per inference (" + fmt::ms(a.latencyMs) + " -> " +
                fmt::ms(b.latencyMs) + " ms, " + fmt::fps(a.fps) + " -> " + fmt::fps(b.fps) + " FPS)";
    head += " on " + c.a.target + ". " + std::to_string(c.nodes.size()) + " nodes matched (" +
            std::to_string(c.matchedByName) + " by name, " + std::to_string(c.matchedByStructure) +
            " by structure); " + std::to_string(c.unmatchedA.size()) + " only in A, " +
            std::to_string(c.unmatchedB.size()) + " only in B.";
    s.blocks.push_back(Paragraph{head});

    TableBlock t{"Model-level figures, A against B",
                 table({"Metric", "A", "B", "Change"},
                       {Align::Left, Align::Right, Align::Right, Align::Right}, {3, 1.5, 1.5, 1.5})};
    auto row = [&t](std::string name, std::string va, std::string vb, std::string ch) {
        t.table.rows.push_back({std::move(name), std::move(va), std::move(vb), std::move(ch)});
    };
    row("Latency per inference, 1 thread (ms)", fmt::ms(a.latencyMs), fmt::ms(b.latencyMs),
        change(a.latencyMs, b.latencyMs));
    row("BPU time alone (ms)", fmt::ms(a.bpuMs), fmt::ms(b.bpuMs), change(a.bpuMs, b.bpuMs));
    row("FPS, 1 thread", fmt::fps(a.fps), fmt::fps(b.fps), change(a.fps, b.fps));
    row("Nodes", fmt::count(c.a.nodes), fmt::count(c.b.nodes), signedCount(c.b.nodes - c.a.nodes));
    row("CPU nodes", fmt::count(c.a.cpuNodes), fmt::count(c.b.cpuNodes),
        signedCount(c.b.cpuNodes - c.a.cpuNodes));
    row("BPU segments", fmt::count(c.a.bpuSegments), fmt::count(c.b.bpuSegments),
        signedCount(c.b.bpuSegments - c.a.bpuSegments));
    row(
        "Padding waste", fmt::percent(c.a.paddingWasteRatio), fmt::percent(c.b.paddingWasteRatio),
        c.a.paddingWasteRatio == c.b.paddingWasteRatio ? "=" : [&] {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%+.1f pt", (c.b.paddingWasteRatio - c.a.paddingWasteRatio) * 100);
            return std::string(buf);
        }());
    row("Padding waste bytes", fmt::bytes(c.a.paddingWasteBytes), fmt::bytes(c.b.paddingWasteBytes),
        c.a.paddingWasteBytes == c.b.paddingWasteBytes
            ? "="
            : (c.b.paddingWasteBytes > c.a.paddingWasteBytes ? "+" : "-") +
                  fmt::bytes(std::llabs(c.b.paddingWasteBytes - c.a.paddingWasteBytes)));
    row("Findings", fmt::count(c.a.findings), fmt::count(c.b.findings),
        "+" + std::to_string(c.findingsAdded.size()) + " / -" + std::to_string(c.findingsRemoved.size()));
    row("Nodes that changed placement", "", fmt::count(c.placementChanges), "");
    row("Nodes whose shape changed", "", fmt::count(c.shapeChanges), "");
    row("Nodes whose padding changed", "", fmt::count(c.paddingChanges), "");
    s.blocks.push_back(std::move(t));
    s.blocks.push_back(KeyValues{"Models", {{"A", c.a.path}, {"B", c.b.path}, {"Target", c.a.target}}});
    return s;
}

Section nodeDeltas(const Comparison& c) {
    Section s{"node-deltas", 0, "Largest node latency deltas", {}};
    std::vector<const NodeDelta*> order;
    for (const NodeDelta& d : c.nodes)
        if (d.latencyDeltaUs() != 0)
            order.push_back(&d);
    std::stable_sort(order.begin(), order.end(), [](const NodeDelta* l, const NodeDelta* r) {
        return std::fabs(l->latencyDeltaUs()) > std::fabs(r->latencyDeltaUs());
    });
    if (order.empty()) {
        s.blocks.push_back(Note{"No matched node's estimated latency changed."});
        return s;
    }
    TableBlock t{
        "Matched nodes by the size of their latency change (B - A), " +
            std::to_string(std::min(order.size(), kDeltaRows)) + " of " + std::to_string(order.size()) +
            " that changed",
        table({"Node in A", "Node in B", "Op", "A (us)", "B (us)", "Delta (us)", "Placement", "Shape"},
              {Align::Left, Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Left,
               Align::Left},
              {3, 3, 1.3, 1, 1, 1, 1.3, 2})};
    for (size_t i = 0; i < order.size() && i < kDeltaRows; ++i) {
        const NodeDelta& d = *order[i];
        const std::string placement = d.placementChanged() ? std::string(placementName(d.inA.placement)) +
                                                                 " -> " + placementName(d.inB.placement)
                                                           : placementName(d.inA.placement);
        const std::string shape =
            d.shapeChanged() ? dimsText(d.inA.shape) + " -> " + dimsText(d.inB.shape) : dimsText(d.inA.shape);
        t.table.rows.push_back({d.inA.name, d.inB.name, d.op, fmt::us(d.inA.latencyUs),
                                fmt::us(d.inB.latencyUs), signedUs(d.latencyDeltaUs()), placement, shape});
    }
    s.blocks.push_back(std::move(t));
    return s;
}

Section changes(const Comparison& c) {
    Section s{"changes", 0, "Placement, shape and padding changes", {}};
    TableBlock placement{"Nodes that run on another unit in B",
                         table({"Node in A", "Node in B", "Op", "A", "B"},
                               {Align::Left, Align::Left, Align::Left, Align::Left, Align::Left},
                               {3, 3, 1.5, 1, 1})};
    TableBlock shapes{
        "", table({"Node in A", "Op", "Shape A", "Shape B", "Padded A", "Padded B", "Waste A", "Waste B"},
                  {Align::Left, Align::Left, Align::Left, Align::Left, Align::Left, Align::Left, Align::Right,
                   Align::Right},
                  {3, 1.3, 2, 2, 2, 2, 1.2, 1.2})};
    size_t changed = 0;
    for (const NodeDelta& d : c.nodes) {
        if (d.placementChanged())
            placement.table.rows.push_back({d.inA.name, d.inB.name, d.op, placementName(d.inA.placement),
                                            placementName(d.inB.placement)});
        if ((d.shapeChanged() || d.paddingChanged()) && changed++ < kChangeRows)
            shapes.table.rows.push_back({d.inA.name, d.op, dimsText(d.inA.shape), dimsText(d.inB.shape),
                                         dimsText(d.inA.paddedShape), dimsText(d.inB.paddedShape),
                                         fmt::bytes(d.inA.paddingWasteBytes),
                                         fmt::bytes(d.inB.paddingWasteBytes)});
    }
    if (placement.table.rows.empty())
        s.blocks.push_back(Note{"Every matched node runs on the same unit in both models."});
    else
        s.blocks.push_back(std::move(placement));
    if (shapes.table.rows.empty()) {
        s.blocks.push_back(Note{"No matched node's output shape or padding changed."});
    } else {
        shapes.caption =
            "Nodes whose output shape or BPU padding changed (first output; waste over every output), " +
            std::to_string(shapes.table.rows.size()) + " of " + std::to_string(changed);
        s.blocks.push_back(std::move(shapes));
    }
    return s;
}

void unmatchedTable(Section& s, const std::vector<UnmatchedNode>& list, const std::string& side) {
    if (list.empty()) {
        s.blocks.push_back(Note{"Every node of " + side + " has a match."});
        return;
    }
    TableBlock t{
        "Only in " + side + " (" + std::to_string(list.size()) + " nodes" +
            (list.size() > kUnmatchedRows ? ", first " + std::to_string(kUnmatchedRows) + " shown" : "") +
            ")",
        table({"Node", "Op", "Placement", "Output shape", "Latency (us)"},
              {Align::Left, Align::Left, Align::Left, Align::Left, Align::Right}, {4, 1.5, 1, 2, 1})};
    for (size_t i = 0; i < list.size() && i < kUnmatchedRows; ++i)
        t.table.rows.push_back({list[i].facts.name, list[i].op, placementName(list[i].facts.placement),
                                dimsText(list[i].facts.shape), fmt::us(list[i].facts.latencyUs)});
    s.blocks.push_back(std::move(t));
}

void findingsTable(Section& s, const std::vector<FindingChange>& list, const std::string& caption) {
    if (list.empty()) {
        s.blocks.push_back(Note{caption + ": none."});
        return;
    }
    TableBlock t{caption, table({"Rule", "Severity", "Finding", "Nodes"},
                                {Align::Left, Align::Left, Align::Left, Align::Left}, {0.8, 1, 5, 3})};
    for (const FindingChange& f : list) {
        std::string nodes;
        for (size_t i = 0; i < f.nodes.size() && i < 3; ++i)
            nodes += (i ? ", " : "") + f.nodes[i];
        if (f.nodes.size() > 3)
            nodes += " (+" + std::to_string(f.nodes.size() - 3) + ")";
        t.table.rows.push_back({f.rule, f.severity, f.title, nodes});
    }
    s.blocks.push_back(std::move(t));
}

Section method() {
    Section s{"method", 0, "How nodes were matched", {}};
    s.blocks.push_back(Paragraph{
        "First by name: a node of A pairs with the node of B of the same name and op type when each of its "
        "data "
        "inputs comes from a same-named node of the same op (or the same model input) and its weights have "
        "the "
        "same dims, so generic names that a re-export renumbered never pair different nodes. Then by "
        "structure, "
        "outwards from the model inputs and outputs (by position) and the name pairs: the producers of two "
        "matched "
        "values pair when they have the same op, and their unmatched consumers that read them at the same "
        "input "
        "slot with the same op type pair up. Among several candidates, a pair is taken only when it beats "
        "every "
        "rival on same name, same weight dims and attributes, same output shape and already matched other "
        "inputs; "
        "ties wait for another route through the graph. Then nodes whose op, weight dims, attributes and "
        "output "
        "shape occur exactly once among the unmatched nodes of each model pair up, and what is still tied "
        "(parallel branches alike in every respect) pairs by relative position. Shapes only rank candidates, "
        "so "
        "two exports at different input sizes still match node for node."});
    s.blocks.push_back(Paragraph{"Both models are analysed with the same target profile. A node's latency is "
                                 "its share of its BPU layer "
                                 "plus the Q/DQ passes and CPU/BPU switches charged to it (the analysis "
                                 "report's method section gives the "
                                 "formulas). A finding counts as the same in both models when it cites the "
                                 "same rule and at least one of "
                                 "the same nodes through the matching."});
    return s;
}

} // namespace

ReportDocument comparisonReport(const Comparison& c, const std::string& generatedAt) {
    ReportDocument doc;
    const std::string a = std::filesystem::path(c.a.path).stem().string();
    const std::string b = std::filesystem::path(c.b.path).stem().string();
    doc.modelName = a + "-vs-" + b;
    doc.modelFile = c.a.path + " vs " + c.b.path;
    doc.title = "BpuScope comparison: " + a + " (A) vs " + b + " (B)";
    doc.targetName = c.a.target;
    doc.generatedAt = generatedAt.empty() ? nowText() : generatedAt;
    doc.generator = std::string("BpuScope ") + BPUSCOPE_VERSION;
    doc.partial = comparisonPartial(c);
    const nlohmann::json j = comparisonJson(c);
    doc.facts = j["summary"];
    doc.facts["a"] = j["a"];
    doc.facts["b"] = j["b"];
    // The PDF cover's headline tiles (ui/report/PdfComposer reads facts.cover).
    const LatencyFigures &fa = c.a.figures, &fb = c.b.figures;
    char delta[48];
    std::snprintf(delta, sizeof delta, "%+.3f ms", c.latencyMsDelta());
    doc.facts["cover"] = {
        {"kicker", "BpuScope model comparison"},
        {"tiles",
         {{{"label", "Latency, B - A"},
           {"value", delta},
           {"detail", fmt::ms(fa.latencyMs) + " -> " + fmt::ms(fb.latencyMs) + " ms per inference"}},
          {{"label", "FPS, 1 thread"},
           {"value", fmt::fps(fa.fps) + " -> " + fmt::fps(fb.fps)},
           {"detail", change(fa.fps, fb.fps) + " (BPU alone " + fmt::ms(fa.bpuMs) + " -> " +
                          fmt::ms(fb.bpuMs) + " ms)"}},
          {{"label", "Matched nodes"},
           {"value", std::to_string(c.nodes.size()) + " of " + std::to_string(c.a.nodes) + " / " +
                         std::to_string(c.b.nodes)},
           {"detail", std::to_string(c.matchedByName) + " by name, " + std::to_string(c.matchedByStructure) +
                          " by structure"}},
          {{"label", "Padding waste"},
           {"value", fmt::percent(c.a.paddingWasteRatio) + " -> " + fmt::percent(c.b.paddingWasteRatio)},
           {"detail", "of padded activation bytes"}}}}};
    doc.sections.push_back(summary(c));
    doc.sections.push_back(nodeDeltas(c));
    doc.sections.push_back(changes(c));
    Section unmatched{"unmatched", 0, "Unmatched nodes", {}};
    unmatchedTable(unmatched, c.unmatchedA, "A");
    unmatchedTable(unmatched, c.unmatchedB, "B");
    doc.sections.push_back(std::move(unmatched));
    Section findings{"findings", 0, "Findings added and removed", {}};
    findingsTable(findings, c.findingsAdded, "Findings in B that A does not have");
    findingsTable(findings, c.findingsRemoved, "Findings in A that B no longer has");
    doc.sections.push_back(std::move(findings));
    doc.sections.push_back(method());
    for (size_t i = 0; i < doc.sections.size(); ++i)
        doc.sections[i].number = int(i + 1);
    return doc;
}

} // namespace bpu
