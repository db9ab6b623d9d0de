// SPDX-License-Identifier: MIT
#include "PlanText.h"

#include "ReportFormat.h"

namespace bpu::report {

std::string planSummary(const OptimizationPlan& plan) {
    if (plan.steps.empty())
        return "No concrete fix is estimated to lower the latency, so there is no plan to apply (a what-if's "
               "effect is the cost of a waste, an upper bound, never a plan step).";
    const PlanStep& last = plan.steps.back();
    std::string out = (plan.steps.size() == 1
                           ? std::string("Applying the top fix")
                           : "Applying the top " + std::to_string(plan.steps.size()) + " fixes together") +
                      " takes the board latency (1 thread) from " + fmt::ms(plan.latencyMsBefore) + " ms (" +
                      fmt::fps(plan.fpsBefore) + " FPS) to " + fmt::ms(last.latencyMsAfter) + " ms (" +
                      fmt::fps(last.fpsAfter) + " FPS).";
    // Issue 62: how much of it rests on a parameter the calibration does not identify or an unsourced
    // assumption.
    double unproven = 0;
    int unprovenSteps = 0;
    for (const PlanStep& st : plan.steps)
        if (st.unproven) {
            unproven += st.gainMs;
            ++unprovenSteps;
        }
    if (unprovenSteps > 0)
        out += " " + fmt::gainUs(unproven) + " us per image of it comes from " +
               (unprovenSteps == 1 ? std::string("a step") : fmt::plural(unprovenSteps, "step")) +
               " marked unproven (its gain rests on a parameter the calibration does not identify or an "
               "assumption no published source states).";
    if (plan.steps.size() == 1)
        return out;
    // Compared as printed, so the sentence never calls two equal-looking numbers "less".
    const std::string combined = fmt::gainUs(plan.combinedGainMs());
    const std::string summed = fmt::gainUs(plan.sumOfStandaloneGainsMs());
    const double diff = plan.combinedGainMs() - plan.sumOfStandaloneGainsMs();
    out += " Each step is re-estimated on top of the steps before it: ";
    if (combined == summed)
        out += "the combined gain (" + combined +
               " us per image) equals the findings' gains summed, so these "
               "fixes do not overlap.";
    else if (diff < 0)
        out += "the gains overlap, so the combined gain (" + combined +
               " us per image) is less than the findings' gains summed (" + summed + " us).";
    else
        out += "together the fixes save more than each alone, so the combined gain (" + combined +
               " us per image) is more than the findings' gains summed (" + summed + " us).";
    return out;
}

std::string planPartTitle(const OptimizationPlan& plan, bool retraining) {
    const size_t split = plan.firstRetrainingStep();
    const size_t n = retraining ? plan.steps.size() - split : split;
    if (n == 0)
        return {};
    std::string out = retraining ? "Part 2, needs retraining or fine-tuning" : "Part 1, no retraining";
    out += " (" + fmt::plural(int(n), "step") + "): " + fmt::gainUs(plan.partGainMs(retraining)) +
           " us per image";
    if (retraining && split > 0)
        out += " on top of part 1";
    return out;
}

std::vector<std::string> planSkippedLines(const OptimizationPlan& plan) {
    std::vector<std::string> out;
    out.reserve(plan.skipped.size());
    for (const PlanSkip& s : plan.skipped)
        out.push_back(std::string(ruleName(s.rule)) + " " + s.title + ": " + s.reason);
    return out;
}

} // namespace bpu::report
