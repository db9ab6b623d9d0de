// SPDX-License-Identifier: MIT
// One wording of what a finding offers, for every front end (CLI text, report, GUI): a concrete fix's gain
// and what it costs besides time, or that there is none and what the waste costs at most (issue 45).
#pragma once

#include "Finding.h"

#include <string>
#include <vector>

namespace bpu {

/// "0.120 ms" or "-" (not estimated).
std::string gainText(const std::optional<double>& ms);
/// What the fix costs besides time: "needs retraining or fine-tuning; MACs -12.3 M"; empty when nothing.
std::string fixEffectsText(const FixEffects& fx);
/// One line: "fix saves 0.120 ms (needs retraining or fine-tuning)", "no concrete fix; this waste costs at
/// most 0.370 ms (upper bound)", "fix not estimated", ...
std::string findingOutcomeText(const Finding& f);
/// "high", or "medium, unproven" where the finding's gain rests on a parameter the calibration does not
/// identify or an unsourced assumption (issue 62, RestsOn.h).
std::string severityText(const Finding& f);
/// Every profile key and assumption the finding's gain rests on, the weak ones saying why:
/// "vector_elements_per_cycle; assumption lut_activation_separate_layer (no published source states it)".
/// Empty when it rests on nothing measured.
std::string restsOnListText(const Finding& f);
/// The same for a reader of the report's body, without profile keys (the method section names them):
/// "the gain rests on a fitted parameter the calibration does not identify (the method section marks it)
/// and on an assumption no published source states: <its text>". Empty when nothing is weak.
std::string unprovenProse(const Finding& f);
/// The findings folded below the list in one line: "12 more findings, each saving or wasting at most
/// 0.004 ms, are folded (the JSON's folded_findings lists them)"; empty when none.
std::string foldedSummaryText(const std::vector<Finding>& folded);
/// A merged or grouped part in one line: "[G1.1] title (fix saves 0.120 ms)".
std::string findingPartText(const FindingPart& p);

} // namespace bpu
