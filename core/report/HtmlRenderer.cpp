// SPDX-License-Identifier: MIT
#include "ReportRenderers.h"

#include <sstream>

namespace bpu::report {

namespace {

std::string esc(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char ch : s) {
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += ch;
        }
    }
    return out;
}

const char* kStyle = R"(
body { font-family: "Noto Sans", "Noto Sans CJK SC", "DejaVu Sans", sans-serif; font-size: 14px; color: #1a1a1a;
       max-width: 1100px; margin: 2em auto; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 24px; margin-bottom: 0.2em; }
h2 { font-size: 19px; border-bottom: 2px solid #0072B2; padding-bottom: 3px; margin-top: 2em; }
h3 { font-size: 16px; margin-top: 1.6em; }
h4 { font-size: 14px; margin-top: 1.2em; }
.meta { color: #555; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 12.5px; }
th, td { border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; }
th { background: #e8eef5; text-align: left; }
td.r, th.r { text-align: right; }
tr:nth-child(even) td { background: #f7f7f7; }
td { word-break: break-word; }
caption { caption-side: top; text-align: left; font-style: italic; padding-bottom: 3px; }
dl.kv { display: grid; grid-template-columns: max-content auto; gap: 2px 14px; margin: 0.4em 0 1em; }
dl.kv dt { font-weight: bold; } dl.kv dd { margin: 0; word-break: break-word; }
.kvtitle { font-weight: bold; margin-top: 1em; }
blockquote.rule { border-left: 4px solid #009E73; margin: 0.6em 0; padding: 4px 10px; background: #f2faf7; }
p.note { color: #444; font-style: italic; }
p.partial { background: #ffecb3; color: #3e2723; border-left: 4px solid #e69f00; padding: 6px 10px; font-weight: bold; }
ul.diagnostics { color: #444; font-size: 0.92em; }
figure { margin: 1em 0; } figcaption { font-size: 12.5px; color: #333; margin-top: 4px; }
svg.chart { max-width: 100%; height: auto; }
nav ol { margin: 0.4em 0; }
.kpis { display: flex; flex-wrap: wrap; gap: 8px; margin: 1em 0 1.4em; }
.kpi { flex: 1 1 150px; border: 1px solid #c8ccd2; border-left: 4px solid #0072B2; border-radius: 4px;
       background: #f5f8fc; padding: 6px 10px; }
.kpi .label { color: #5a5a5a; font-size: 12px; } .kpi .value { font-size: 22px; font-weight: bold; }
.kpi .detail { color: #5a5a5a; font-size: 11px; }
)";

void table(std::ostream& os, const Table& t, const std::string& caption) {
    os << "<table>";
    if (!caption.empty())
        os << "<caption>" << esc(caption) << "</caption>";
    os << "<thead><tr>";
    for (size_t i = 0; i < t.headers.size(); ++i)
        os << "<th" << (i < t.align.size() && t.align[i] == Align::Right ? " class=\"r\"" : "") << ">"
           << esc(t.headers[i]) << "</th>";
    os << "</tr></thead><tbody>\n";
    for (const auto& row : t.rows) {
        os << "<tr>";
        for (size_t i = 0; i < row.size(); ++i)
            os << "<td" << (i < t.align.size() && t.align[i] == Align::Right ? " class=\"r\"" : "") << ">"
               << esc(row[i]) << "</td>";
        os << "</tr>\n";
    }
    os << "</tbody></table>\n";
}

struct BlockWriter {
    std::ostream& os;
    void operator()(const Heading& h) const {
        os << "<h" << h.level + 1 << ">" << esc(h.text) << "</h" << h.level + 1 << ">\n";
    }
    void operator()(const Paragraph& p) const { os << "<p>" << esc(p.text) << "</p>\n"; }
    void operator()(const KeyValues& kv) const {
        if (!kv.title.empty())
            os << "<div class=\"kvtitle\">" << esc(kv.title) << "</div>";
        os << "<dl class=\"kv\">";
        for (const auto& i : kv.items)
            os << "<dt>" << esc(i.key) << "</dt><dd>" << esc(i.value) << "</dd>";
        os << "</dl>\n";
    }
    void operator()(const TableBlock& t) const { table(os, t.table, t.caption); }
    void operator()(const RuleText& r) const {
        os << "<blockquote class=\"rule\"><b>Rule " << esc(r.id)
           << (r.title.empty() ? "" : " - " + esc(r.title)) << ".</b> " << esc(r.text) << "</blockquote>\n";
    }
    void operator()(const Note& n) const { os << "<p class=\"note\">" << esc(n.text) << "</p>\n"; }
    void operator()(const ChartBlock& c) const {
        os << "<figure>";
        if (c.kind == ChartKind::Roofline)
            os << rooflineSvg(c.roofline);
        else
            os << barChartSvg(c.bars);
        os << "<figcaption>" << esc(c.caption) << "</figcaption></figure>\n";
        if (c.kind == ChartKind::Roofline && !c.fallback.headers.empty())
            table(os, c.fallback, "");
    }
    void operator()(const FigureBlock& f) const {
        os << "<p class=\"note\">Figure (drawn in the PDF report): " << esc(f.caption) << "</p>\n";
    }
};

} // namespace

std::string renderHtml(const ReportDocument& doc) {
    std::ostringstream os;
    os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" << esc(doc.title)
       << "</title>\n<style>" << kStyle << "</style></head><body>\n";
    os << "<h1>" << esc(doc.title) << "</h1>\n<p class=\"meta\">Model <code>" << esc(doc.modelFile)
       << "</code> on " << esc(doc.targetName) << " &middot; generated " << esc(doc.generatedAt) << " by "
       << esc(doc.generator) << "</p>\n";
    if (const std::string partial = partialLine(doc); !partial.empty())
        os << "<p class=\"partial\">" << esc(partial) << "</p>\n";
    if (const auto cards = headlineCards(doc); !cards.empty()) {
        os << "<div class=\"kpis\">";
        for (const auto& k : cards)
            os << "<div class=\"kpi\"><div class=\"label\">" << esc(k.label) << "</div><div class=\"value\">"
               << esc(k.value) << "</div><div class=\"detail\">" << esc(k.detail) << "</div></div>";
        os << "</div>\n";
    }
    if (const auto lines = firstPageDiagnostics(doc); !lines.empty()) {
        os << "<ul class=\"diagnostics\">";
        for (const auto& l : lines)
            os << "<li>" << esc(l) << "</li>";
        os << "</ul>\n";
    }
    os << "<nav><ol>";
    for (const auto& s : doc.sections)
        os << "<li><a href=\"#" << esc(s.id) << "\">" << esc(s.title) << "</a></li>";
    os << "</ol></nav>\n";
    for (const auto& s : doc.sections) {
        os << "<section id=\"" << esc(s.id) << "\"><h2>" << s.number << ". " << esc(s.title) << "</h2>\n";
        for (const auto& b : s.blocks)
            std::visit(BlockWriter{os}, b);
        os << "</section>\n";
    }
    os << "</body></html>\n";
    return os.str();
}

} // namespace bpu::report
