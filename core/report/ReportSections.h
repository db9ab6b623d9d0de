// SPDX-License-Identifier: MIT
// Internal to core/report: one function per report section, over a shared context.
#pragma once

#include "ReportBuilder.h"
#include "core/edit/Session.h"

namespace bpu::report::detail {

struct Context {
    const ReportInput& in;
    const Session& s;
    const Graph& g;
    const AnalysisResult& r;
    const CostEstimate& c;
    const TargetProfile& t;
    const GuideRules& rules;
};

Section summarySection(const Context& c);
Section findingsSection(const Context& c);
Section hotspotsSection(const Context& c);
Section chartsSection(const Context& c);
Section graphSection(const Context& c, const GraphOverview& overview);
Section whatIfSection(const Context& c);
Section methodSection(const Context& c, const Progress& progress);

/// A row of strings from anything streamable into std::string.
Table makeTable(std::vector<std::string> headers, std::vector<Align> align);

} // namespace bpu::report::detail
