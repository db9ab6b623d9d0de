// SPDX-License-Identifier: MIT
#include "PlanJson.h"

#include "core/edit/EditList.h"

namespace bpu {

nlohmann::json planJson(const OptimizationPlan& plan) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& st : plan.steps)
        out.push_back({{"finding", {{"rule", ruleName(st.rule)}, {"cause", st.cause}, {"title", st.title}}},
                       {"edits", editListToJson(st.edits)["edits"]},
                       {"standalone_gain_ms", st.standaloneGainMs},
                       {"gain_ms", st.gainMs},
                       {"latency_ms_after", st.latencyMsAfter},
                       {"fps_after", st.fpsAfter},
                       {"part", st.retrains ? "retraining" : "no-retraining"},
                       {"unproven", st.unproven}});
    return out;
}

nlohmann::json planSummaryJson(const OptimizationPlan& plan) {
    nlohmann::json skipped = nlohmann::json::array();
    for (const auto& s : plan.skipped)
        skipped.push_back({{"rule", ruleName(s.rule)},
                           {"kind", planSkipKindName(s.kind)},
                           {"cause", s.cause},
                           {"title", s.title},
                           {"reason", s.reason},
                           {"detail", s.detail}});
    return {{"no_retraining_steps", plan.firstRetrainingStep()},
            {"no_retraining_gain_ms", plan.partGainMs(false)},
            {"retraining_gain_ms", plan.partGainMs(true)},
            {"latency_ms_before", plan.latencyMsBefore},
            {"fps_before", plan.fpsBefore},
            {"steps", plan.steps.size()},
            {"combined_gain_ms", plan.combinedGainMs()},
            {"sum_of_standalone_gains_ms", plan.sumOfStandaloneGainsMs()},
            {"note", "each step is re-estimated on top of the ones before it: gains overlap, so the combined "
                     "gain is not the sum of the findings' gains"},
            {"skipped", skipped}};
}

} // namespace bpu
