// SPDX-License-Identifier: MIT
#pragma once

#include "ReportDocument.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bpu::report {

/// The report as GitHub-flavoured Markdown (for pasting into reviews); charts become their data tables.
std::string renderMarkdown(const ReportDocument& doc);
/// The report as one self-contained HTML page (inline CSS, inline SVG charts, no external assets).
std::string renderHtml(const ReportDocument& doc);
/// The report as `bpuscope.report/1` JSON: the sections' blocks as data, plus the headline facts.
nlohmann::json reportJson(const ReportDocument& doc);

/// The first page's cards: doc.kpis, else the tiles a document built elsewhere (a comparison) carries in
/// facts["cover"]["tiles"]; empty when there are neither.
std::vector<KpiCard> headlineCards(const ReportDocument& doc);

/// "PARTIAL: <why>." when the result rests on unresolved inputs, else empty: what each format prints before
/// any figure.
std::string partialLine(const ReportDocument& doc);
/// The first page's diagnostics, one line each ("Warning: ...", "Note: ..."), the first
/// kFirstPageDiagnostics and then "N more diagnostics: ..." pointing at where they all are.
std::vector<std::string> firstPageDiagnostics(const ReportDocument& doc);

/// Inline SVG of a bar chart (horizontal bars, largest first) / of the roofline; used by the HTML renderer.
std::string barChartSvg(const BarSeries& s);
std::string rooflineSvg(const RooflineData& d);

/// Okabe-Ito colour-blind-safe categorical colour as "#RRGGBB" (the same set the GUI uses).
std::string categoricalHex(int index);

} // namespace bpu::report
