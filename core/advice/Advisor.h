// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisOptions.h"
#include "core/analysis/AnalysisResult.h"

#include <vector>

namespace bpu {

class Graph;
struct TargetProfile;

/// The one entry point of advice (issue 44): runs the design guide's G1-G6 rules (Rules.h) over an analysed
/// result and ranks what they find. The analysis states facts; this says what to change.
class Advisor {
public:
    /// Replaces `r.findings` with the rules' findings over `r`'s facts, ranked.
    static void addFindings(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                            AnalysisResult& r);
    /// Orders findings: estimated gain first (when the cost engine filled it), then severity.
    static void rankFindings(std::vector<Finding>& findings);
};

} // namespace bpu
