// SPDX-License-Identifier: MIT
#pragma once

#include "core/advice/OptimizationPlan.h"

#include <nlohmann/json.hpp>

namespace bpu {

/// `plan`: [{finding: {rule, cause, title}, edits, standalone_gain_ms, gain_ms, latency_ms_after,
/// fps_after}], the steps in the order they apply (docs/json-schema.md).
nlohmann::json planJson(const OptimizationPlan& plan);
/// `plan_summary`: latency/FPS before, combined gain, the sum of standalone gains (gains do not add up), and
/// the skipped fixes with their reasons.
nlohmann::json planSummaryJson(const OptimizationPlan& plan);

} // namespace bpu
