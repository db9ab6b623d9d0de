// SPDX-License-Identifier: MIT
// The optimization plan on the report's first page: the top fixes applied together, each re-estimated on
// top of the ones before it (core/edit/OptimizationPlan), with the latency and FPS after each step.
#include "PlanText.h"
#include "ReportFormat.h"
#include "ReportSections.h"

namespace bpu::report::detail {

std::vector<Block> planBlocks(const Context& c) {
    const OptimizationPlan& plan = c.plan;
    if (plan.steps.empty() && plan.skipped.empty())
        return {};
    std::vector<Block> out;
    // The reader's first question is "how much if we do all of it": the combined figure leads, and the
    // sum of the standalone gains beside it says why the finding gains below do not add up.
    out.push_back(Paragraph{"Optimization plan: " + fmt::prose(planSummary(plan))});
    if (!plan.steps.empty()) {
        TableBlock t;
        t.caption = "Optimization plan (cumulative)";
        t.table =
            makeTable({"Step", "Rule", "Fix", "Saves (us)", "Latency after (ms)", "FPS after"},
                      {Align::Right, Align::Left, Align::Left, Align::Right, Align::Right, Align::Right});
        t.table.widths = {0.5, 0.7, 5.2, 1, 1.2, 1};
        // Two parts (issue 62): a heading row with its subtotal before each part's first step.
        const size_t split = plan.firstRetrainingStep();
        for (size_t i = 0; i < plan.steps.size(); ++i) {
            const PlanStep& st = plan.steps[i];
            if (i == 0 || i == split)
                t.table.rows.push_back({"", "", fmt::prose(planPartTitle(plan, i == split)), "", "", ""});
            t.table.rows.push_back({std::to_string(i + 1), ruleName(st.rule),
                                    fmt::prose(st.title) + (st.unproven ? " (unproven)" : ""),
                                    fmt::gainUs(st.gainMs), fmt::ms(st.latencyMsAfter),
                                    fmt::fps(st.fpsAfter)});
        }
        out.push_back(std::move(t));
    }
    // A fix with a gain of its own that is not a step: say why, or the reader looks for it in the table.
    if (!plan.skipped.empty()) {
        std::string text = "Left out of the plan: ";
        const std::vector<std::string> lines = planSkippedLines(plan);
        for (size_t i = 0; i < lines.size(); ++i)
            text += (i ? "; " : "") + lines[i];
        out.push_back(Note{fmt::prose(text) + "."});
    }
    return out;
}

} // namespace bpu::report::detail
