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

/// One line per fix the plan tried and left out, with the reason: "G5.1 <title>: <reason>".
std::vector<std::string> planSkippedLines(const OptimizationPlan& plan);

} // namespace bpu::report
