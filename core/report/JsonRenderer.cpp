// SPDX-License-Identifier: MIT
#include "ReportRenderers.h"
#include "core/analysis/AnalysisTypes.h"

#include "DiagnosticsJson.h"

namespace bpu::report {

namespace {

using nlohmann::json;

const char* chartName(ChartKind k) {
    switch (k) {
    case ChartKind::LayerLatency:
        return "layer_latency";
    case ChartKind::Roofline:
        return "roofline";
    case ChartKind::PaddingWaste:
        return "padding_waste";
    case ChartKind::OpBreakdown:
        return "op_breakdown";
    }
    return "?";
}

const char* figureName(FigureKind k) {
    switch (k) {
    case FigureKind::GraphPlacement:
        return "graph_placement";
    case FigureKind::GraphPadding:
        return "graph_padding";
    case FigureKind::GraphHotspot:
        return "graph_hotspot";
    }
    return "?";
}

json tableJson(const Table& t) {
    json align = json::array();
    for (size_t i = 0; i < t.headers.size(); ++i)
        align.push_back(i < t.align.size() && t.align[i] == Align::Right ? "right" : "left");
    return {{"headers", t.headers}, {"align", align}, {"rows", t.rows}};
}

json barsJson(const BarSeries& s) {
    json items = json::array();
    for (const auto& b : s.items)
        items.push_back(
            {{"label", b.label}, {"value", b.value}, {"category", b.category}, {"detail", b.detail}});
    return {{"title", s.title}, {"value_axis", s.valueAxis}, {"categories", s.categories}, {"items", items}};
}

json rooflineJson(const RooflineData& d) {
    json pts = json::array();
    for (const auto& p : d.points)
        pts.push_back({{"node", p.label},
                       {"intensity", p.intensity},
                       {"macs_per_second", p.macsPerSecond},
                       {"bound", boundName(p.bound)},
                       {"latency_us", p.latencyUs}});
    return {{"peak_macs_per_second", d.peakMacsPerSecond},
            {"roof_macs_per_second", d.roofMacsPerSecond},
            {"ddr_bytes_per_second", d.ddrBytesPerSecond},
            {"ridge_macs_per_byte", d.ridgeIntensity},
            {"compute_bound", d.computeBound},
            {"memory_bound", d.memoryBound},
            {"points", pts}};
}

struct BlockJson {
    json operator()(const Heading& h) const {
        return {{"type", "heading"}, {"level", h.level}, {"text", h.text}};
    }
    json operator()(const Paragraph& p) const { return {{"type", "paragraph"}, {"text", p.text}}; }
    json operator()(const KeyValues& kv) const {
        json items = json::array();
        for (const auto& i : kv.items)
            items.push_back({{"key", i.key}, {"value", i.value}});
        return {{"type", "key_values"}, {"title", kv.title}, {"items", items}};
    }
    json operator()(const TableBlock& t) const {
        json j = tableJson(t.table);
        j["type"] = "table";
        j["caption"] = t.caption;
        return j;
    }
    json operator()(const RuleText& r) const {
        return {{"type", "rule"}, {"id", r.id}, {"title", r.title}, {"text", r.text}};
    }
    json operator()(const Note& n) const { return {{"type", "note"}, {"text", n.text}}; }
    json operator()(const ChartBlock& c) const {
        json j = {{"type", "chart"}, {"kind", chartName(c.kind)}, {"caption", c.caption}};
        if (c.kind == ChartKind::Roofline)
            j["roofline"] = rooflineJson(c.roofline);
        else
            j["series"] = barsJson(c.bars);
        if (!c.fallback.headers.empty())
            j["table"] = tableJson(c.fallback);
        return j;
    }
    json operator()(const FigureBlock& f) const {
        return {{"type", "figure"}, {"kind", figureName(f.kind)}, {"caption", f.caption}};
    }
};

} // namespace

std::vector<KpiCard> headlineCards(const ReportDocument& doc) {
    if (!doc.kpis.empty())
        return doc.kpis;
    std::vector<KpiCard> out;
    if (!doc.facts.is_object() || !doc.facts.contains("cover") || !doc.facts["cover"].is_object())
        return out;
    const json& tiles = doc.facts["cover"].value("tiles", json::array());
    if (!tiles.is_array())
        return out;
    for (const auto& t : tiles)
        if (t.is_object())
            out.push_back({t.value("label", std::string()), t.value("value", std::string()),
                           t.value("detail", std::string())});
    return out;
}

std::string partialLine(const ReportDocument& doc) {
    return doc.partial.empty() ? std::string() : "PARTIAL: " + doc.partial + ".";
}

std::vector<std::string> firstPageDiagnostics(const ReportDocument& doc) {
    std::vector<std::string> out;
    for (size_t i = 0; i < doc.diagnostics.size() && i < kFirstPageDiagnostics; ++i) {
        const Diagnostic& d = doc.diagnostics[i];
        out.push_back(std::string(d.severity == DiagSeverity::Warning ? "Warning: " : "Note: ") + d.text);
    }
    if (doc.diagnostics.size() > kFirstPageDiagnostics)
        out.push_back(std::to_string(doc.diagnostics.size() - kFirstPageDiagnostics) +
                      " more diagnostics: all are in the JSON report and in `analyze --json`.");
    return out;
}

nlohmann::json reportJson(const ReportDocument& doc) {
    json sections = json::array();
    for (const auto& s : doc.sections) {
        json blocks = json::array();
        for (const auto& b : s.blocks)
            blocks.push_back(std::visit(BlockJson{}, b));
        sections.push_back({{"id", s.id}, {"number", s.number}, {"title", s.title}, {"blocks", blocks}});
    }
    json kpis = json::array();
    for (const auto& k : headlineCards(doc))
        kpis.push_back({{"label", k.label}, {"value", k.value}, {"detail", k.detail}});
    return {{"complete", doc.partial.empty()},
            {"partial_summary", doc.partial},
            {"diagnostics", diagnosticsJson(doc.diagnostics)},
            {"kpis", kpis},
            {"schema", "bpuscope.report/1"},
            {"title", doc.title},
            {"model", doc.modelName},
            {"file", doc.modelFile},
            {"target", doc.targetName},
            {"generated_at", doc.generatedAt},
            {"generator", doc.generator},
            {"facts", doc.facts},
            {"sections", sections}};
}

} // namespace bpu::report
