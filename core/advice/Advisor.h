// SPDX-License-Identifier: MIT
#pragma once

#include "core/advice/Finding.h"
#include "core/advice/Objective.h"
#include "core/analysis/AnalysisFwd.h"
#include "core/analysis/AnalysisOptions.h"
#include "core/util/Progress.h"

#include <vector>

namespace bpu {

class Graph;
class Session;
struct TargetProfile;

/// The one entry point of advice (issue 44): runs the design guide's G1-G6 rules (Rules.h) over an analysed
/// result and ranks what they find. The analysis states facts; this says what to change.
class Advisor {
public:
    /// Replaces `r.findings` with the rules' findings over `r`'s facts, ranked.
    static void addFindings(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                            AnalysisResult& r);
    /// Orders findings by their gain in `objective` (Objective.h): the estimated gain per image (latency)
    /// or the FPS gain (throughput), when the cost engine filled it; then the waste's cost, then severity.
    static void rankFindings(std::vector<Finding>& findings, Objective objective = Objective::Latency);
    /// Fills estimated_gain_ms of every finding of `s` (FixTrials.cpp): each distinct fix is applied to the
    /// session, measured and reverted (two incremental re-estimates, no copy of the session: peak memory
    /// stays that of one session), one after the other; the session ends as it began. Then each estimated
    /// finding's severity is its gain's share of the per-image latency (severity_high_share /
    /// severity_medium_share), and a finding whose fix does not make the model faster is dropped; a fix
    /// that batches images (faster per image, slower per frame) stays as a trade-off with both figures in
    /// its evidence. `progress`'s cancel flag stops it between trials (Cancelled is thrown; the findings
    /// keep no gain).
    static void estimateGains(Session& s, const Progress& progress = {});
};

} // namespace bpu
