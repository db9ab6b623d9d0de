// SPDX-License-Identifier: MIT
// Internal to core/report: one function per report section, over a shared context.
#pragma once

#include "ReportBuilder.h"
#include "core/advice/OptimizationPlan.h"
#include "core/edit/Session.h"

#include <cstddef>
#include <span>
#include <string>

namespace bpu::report::detail {

struct Context {
    const ReportInput& in;
    const Session& s;
    const Graph& g;
    const AnalysisResult& r;
    const CostEstimate& c;
    const TargetProfile& t;
    const GuideRules& rules;
    const OptimizationPlan& plan; ///< the top fixes applied together (empty when no fix gains)
};

/// The first page's headline cards (ReportKpis.cpp).
std::vector<KpiCard> kpiCards(const Context& c);
Section summarySection(const Context& c);
/// The optimization plan's blocks for the first page (ReportPlan.cpp); none when no fix gains.
std::vector<Block> planBlocks(const Context& c);
Section findingsSection(const Context& c);
Section hotspotsSection(const Context& c);
/// The BPU layers as the compiler builds them, slowest first, in hbm_perf's columns (ReportLayers.cpp).
Section layersSection(const Context& c);
Section chartsSection(const Context& c);
Section graphSection(const Context& c, const GraphOverview& overview);
Section whatIfSection(const Context& c);
Section methodSection(const Context& c, const Progress& progress);
/// The model's and the target profile's particulars, opening the method section (ReportSummary.cpp).
std::vector<Block> modelAndTargetBlocks(const Context& c);

/// A finding's estimated gain for a "Gain (us)" column (fmt::gainUs), "-" when it has none
/// (ReportFindings.cpp).
std::string findingGainUs(const Finding& f);

/// Rows of a finding's node table before the rest are counted in one "... N more nodes" row: about half a
/// page, enough to see where the finding sits; a placement fix can cover hundreds of CPU nodes, and
/// `analyze --json` lists them all.
constexpr size_t kNodeRows = 25;

/// The nodes with what each costs (name, op, placement, latency, share of the model; with `waste` the
/// padding waste ratio of its outputs), in the order given. Past `maxRows` one row counts the rest. Used by
/// a finding's detail and by the graph section's hotspot neighbourhood (ReportFindings.cpp).
TableBlock nodeCostTable(const Context& c, std::span<const NodeId> nodes, std::string caption, size_t maxRows,
                         bool waste);

/// A row of strings from anything streamable into std::string.
Table makeTable(std::vector<std::string> headers, std::vector<Align> align);

} // namespace bpu::report::detail
