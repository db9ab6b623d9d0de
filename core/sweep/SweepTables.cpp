// SPDX-License-Identifier: MIT
// The sweep's CSV and HTML tables: one row per model x target.
#include "Sweep.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace bpu {

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char ch : s)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

std::string esc(const std::string& s) {
    std::string out;
    for (char ch : s)
        out += ch == '&'   ? "&amp;"
               : ch == '<' ? "&lt;"
               : ch == '>' ? "&gt;"
               : ch == '"' ? "&quot;"
                           : std::string(1, ch);
    return out;
}

std::string num(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

const char* kStyle = R"(
body { font-family: "Noto Sans", "DejaVu Sans", sans-serif; font-size: 14px; color: #1a1a1a; margin: 2em; }
h1 { font-size: 22px; margin-bottom: 0.2em; } .meta { color: #555; margin-bottom: 1em; }
table { border-collapse: collapse; font-size: 12.5px; }
th, td { border: 1px solid #ccc; padding: 3px 7px; vertical-align: top; }
th { background: #e8eef5; text-align: left; cursor: pointer; user-select: none; white-space: nowrap; }
th.sorted-asc::after { content: " \25B2"; } th.sorted-desc::after { content: " \25BC"; }
td.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #f7f7f7; }
tr.failed td { background: #fde8e4; color: #8a1c0a; }
.bar { display: inline-block; height: 9px; background: #0072B2; margin-right: 5px; vertical-align: middle; }
)";

// Click a header to sort by it (numbers numerically, from data-v); click again to reverse.
const char* kScript = R"(
document.querySelectorAll("th").forEach((th, col) => th.addEventListener("click", () => {
  const body = th.closest("table").tBodies[0], asc = !th.classList.contains("sorted-asc");
  th.parentNode.querySelectorAll("th").forEach(h => h.classList.remove("sorted-asc", "sorted-desc"));
  th.classList.add(asc ? "sorted-asc" : "sorted-desc");
  const key = r => { const c = r.cells[col], v = c.dataset.v; return v !== undefined ? parseFloat(v) : c.textContent; };
  [...body.rows].sort((a, b) => { const x = key(a), y = key(b);
    const d = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return asc ? d : -d; }).forEach(r => body.appendChild(r));
}));
)";

} // namespace

std::string sweepCsv(const std::vector<SweepRow>& rows) {
    std::ostringstream os;
    os << "model,target,status,error,latency_ms,bpu_ms,fps,batch,nodes,cpu_nodes,bpu_segments,padding_waste_"
          "ratio,"
          "padding_waste_bytes,findings,top_finding_rule,top_finding,top_finding_gain_ms,complete,partial\n";
    for (const SweepRow& r : rows) {
        os << csvField(r.model) << ',' << csvField(r.target) << ',' << (r.ok ? "ok" : "failed") << ','
           << csvField(r.error);
        if (r.ok) {
            const LatencyFigures& f = r.figures;
            os << ',' << num("%.4f", f.latencyMs) << ',' << num("%.4f", f.bpuMs) << ',' << num("%.2f", f.fps)
               << ',' << f.batch << ',' << r.nodes << ',' << r.cpuNodes << ',' << r.bpuSegments << ','
               << num("%.4f", r.paddingWasteRatio) << ',' << r.paddingWasteBytes << ',' << r.findings << ','
               << csvField(r.topRule) << ',' << csvField(r.topTitle) << ','
               << (r.topGainMs ? num("%.4f", *r.topGainMs) : std::string()) << ','
               << (r.complete ? "true" : "false") << ',' << csvField(r.partial);
        } else {
            os << ",,,,,,,,,,,,,,,";
        }
        os << "\n";
    }
    return os.str();
}

std::string sweepHtml(const std::vector<SweepRow>& rows, const std::string& generatedAt) {
    size_t failed = 0;
    double maxLatency = 0;
    for (const SweepRow& r : rows) {
        failed += !r.ok;
        if (r.ok)
            maxLatency = std::max(maxLatency, r.figures.latencyMs);
    }
    std::ostringstream os;
    os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>BpuScope "
          "sweep</title><style>"
       << kStyle << "</style></head><body>\n<h1>BpuScope sweep</h1>\n<div class=\"meta\">" << rows.size()
       << " rows (model x target), " << failed << " failed. Generated " << esc(generatedAt) << " by BpuScope "
       << BPUSCOPE_VERSION
       << ". Latency: one inference with one thread; BPU: the BPU time alone; both estimates of the target "
          "profile. Click a column to sort.</div>\n<table><thead><tr>";
    for (const char* h : {"Model", "Target", "Latency (ms)", "BPU (ms)", "FPS", "Nodes", "CPU nodes",
                          "Segments", "Padding waste", "Findings", "Top finding", "Gain (ms)"})
        os << "<th>" << h << "</th>";
    os << "</tr></thead><tbody>\n";
    for (const SweepRow& r : rows) {
        const std::string name = std::filesystem::path(r.model).filename().string();
        // A partial row says so where its name is read, the reason in its tooltip.
        os << (r.ok ? "<tr>" : "<tr class=\"failed\">") << "<td title=\""
           << esc(r.complete ? r.model : r.model + " - PARTIAL: " + r.partial) << "\">" << esc(name)
           << (r.complete ? "" : " <b>PARTIAL</b>") << "</td><td>" << esc(r.target) << "</td>";
        if (!r.ok) {
            os << "<td colspan=\"10\">error: " << esc(r.error) << "</td></tr>\n";
            continue;
        }
        const LatencyFigures& f = r.figures;
        const int bar = maxLatency > 0 ? int(60.0 * f.latencyMs / maxLatency + 0.5) : 0;
        auto cell = [&os](double v, const std::string& text) {
            os << "<td class=\"r\" data-v=\"" << num("%.6g", v) << "\">" << text << "</td>";
        };
        os << "<td class=\"r\" data-v=\"" << num("%.6g", f.latencyMs)
           << "\"><span class=\"bar\" style=\"width:" << bar << "px\"></span>" << num("%.3f", f.latencyMs)
           << "</td>";
        cell(f.bpuMs, num("%.3f", f.bpuMs));
        cell(f.fps, num("%.1f", f.fps));
        cell(r.nodes, std::to_string(r.nodes));
        cell(r.cpuNodes, std::to_string(r.cpuNodes));
        cell(r.bpuSegments, std::to_string(r.bpuSegments));
        cell(r.paddingWasteRatio, num("%.1f%%", r.paddingWasteRatio * 100));
        cell(r.findings, std::to_string(r.findings));
        os << "<td>" << (r.topRule.empty() ? std::string("-") : "[" + esc(r.topRule) + "] " + esc(r.topTitle))
           << "</td>";
        cell(r.topGainMs.value_or(0), r.topGainMs ? num("%.3f", *r.topGainMs) : std::string("-"));
        os << "</tr>\n";
    }
    os << "</tbody></table>\n<script>" << kScript << "</script>\n</body></html>\n";
    return os.str();
}

} // namespace bpu
