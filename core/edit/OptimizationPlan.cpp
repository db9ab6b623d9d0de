// SPDX-License-Identifier: MIT
#include "OptimizationPlan.h"

#include "EditList.h"
#include "Session.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace bpu {

double OptimizationPlan::sumOfStandaloneGainsMs() const {
    double sum = 0;
    for (const auto& st : steps)
        sum += st.standaloneGainMs;
    return sum;
}

OptimizationPlan buildOptimizationPlan(const Session& s, size_t maxSteps, const Progress& progress) {
    OptimizationPlan plan;
    plan.latencyMsBefore = s.cost().latencyMs;
    plan.fpsBefore = s.cost().fps;
    plan.perImageMsBefore = s.cost().perImageMs;
    if (maxSteps == SIZE_MAX)
        maxSteps = static_cast<size_t>(std::max(0.0, s.target().planMaxSteps.value));
    // Already in order of their standalone gain: estimateFindingGains ranks them (Analyzer::rankFindings).
    std::vector<const Finding*> order;
    for (const Finding& f : s.analysis().findings)
        if (!f.fix.empty() && f.estimatedGainMs.value_or(0) > kGainNoiseMs)
            order.push_back(&f);
    // The state after the steps so far: `s` itself until a step lands. A session copy holds the whole
    // analysis (~1 KB a node), so none is made for the model as it is, and no more than one beside `next`.
    std::optional<Session> stepped;
    const Session* current = &s;
    for (size_t i = 0; i < order.size() && plan.steps.size() < maxSteps; ++i) {
        progress.checkCancel();
        progress(double(i) / double(order.size()), "optimization plan");
        const Finding& f = *order[i];
        auto skip = [&](std::string why, std::string detail = {}) {
            plan.skipped.push_back({f.rule, f.cause, f.title, std::move(why), std::move(detail)});
        };
        if (f.evidence.contains("trade_off")) {
            skip("a throughput trade-off (batching raises the latency per frame), not a latency gain");
            continue;
        }
        Session next = *current;
        try {
            applyEditList(next, f.fix);
        } catch (const EditError& e) {
            skip("does not apply after the earlier steps (one of them removed or changed what it edits)", e.what());
            continue;
        }
        const double before = current->cost().perImageMs;
        const double after = next.cost().perImageMs;
        if (before - after <= kGainNoiseMs) {
            skip("saves nothing on top of the earlier steps");
            continue;
        }
        plan.steps.push_back({f.rule, f.cause, f.title, f.fix, *f.estimatedGainMs, before - after,
                              next.cost().latencyMs, next.cost().fps, after});
        stepped = std::move(next);
        current = &*stepped;
    }
    progress(1.0, "optimization plan");
    return plan;
}

} // namespace bpu
