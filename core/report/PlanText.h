// SPDX-License-Identifier: MIT
#pragma once

#include "core/advice/OptimizationPlan.h"

#include <string>
#include <vector>

namespace bpu::report {

/// The optimization plan in words, the same wherever it is shown (the report's first page, `analyze`'s text
/// output, the workbench's Plan dock); Qt-free.
///
/// One or two sentences: where applying the plan's steps together takes the board latency (1 thread), and how
/// the combined gain compares with the findings' standalone gains summed - less (the gains overlap), more
/// (together the fixes save more than alone) or equal, chosen from the numbers as printed. With no step: that
/// no fix is estimated as a latency gain.
std::string planSummary(const OptimizationPlan& plan);

/// The heading of one of the plan's two parts (issue 62) with its subtotal: "Part 1, no retraining (3
/// steps): 520.4 us per image" or "Part 2, needs retraining or fine-tuning (2 steps): 1034.0 us per image on
/// top of part 1". Empty when the part has no step.
std::string planPartTitle(const OptimizationPlan& plan, bool retraining);

/// One line per fix the plan tried and left out, with the reason: "G5.1 <title>: <reason>".
std::vector<std::string> planSkippedLines(const OptimizationPlan& plan);

} // namespace bpu::report
