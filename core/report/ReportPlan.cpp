// SPDX-License-Identifier: MIT
// The optimization plan on the report's first page: the top fixes applied together, each re-estimated on
// top of the ones before it (core/edit/OptimizationPlan), with the latency and FPS after each step.
#include "ReportFormat.h"
#include "ReportSections.h"

namespace bpu::report::detail {

std::vector<Block> planBlocks(const Context& c) {
    const OptimizationPlan& plan = c.plan;
    if (plan.steps.empty())
        return {};
    std::vector<Block> out;
    // The reader's first question is "how much if we do all of it": the combined figure leads, and the
    // sum of the standalone gains beside it says why the finding gains below do not add up.
    const PlanStep& last = plan.steps.back();
    out.push_back(Paragraph{
        "Optimization plan: applying the top " + fmt::plural(int64_t(plan.steps.size()), "fix", "fixes") +
        " together takes the board latency (1 thread) from " + fmt::ms(plan.latencyMsBefore) + " ms (" +
        fmt::fps(plan.fpsBefore) + " FPS) to " + fmt::ms(last.latencyMsAfter) + " ms (" +
        fmt::fps(last.fpsAfter) + " FPS). Each step is re-estimated on top of the steps before it; the " +
        "gains overlap, so the combined gain (" + fmt::us(plan.combinedGainMs() * 1000.0) +
        " us) is less than the findings' gains summed (" + fmt::us(plan.sumOfStandaloneGainsMs() * 1000.0) +
        " us)."});
    TableBlock t;
    t.caption = "Optimization plan (cumulative)";
    t.table = makeTable({"Step", "Rule", "Fix", "Saves (us)", "Latency after (ms)", "FPS after"},
                        {Align::Right, Align::Left, Align::Left, Align::Right, Align::Right, Align::Right});
    t.table.widths = {0.5, 0.7, 5.2, 1, 1.2, 1};
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        const PlanStep& st = plan.steps[i];
        t.table.rows.push_back({std::to_string(i + 1), ruleName(st.rule), fmt::prose(st.title),
                                fmt::gainUs(st.gainMs), fmt::ms(st.latencyMsAfter), fmt::fps(st.fpsAfter)});
    }
    out.push_back(std::move(t));
    return out;
}

} // namespace bpu::report::detail
