// SPDX-License-Identifier: MIT
#include "OptimizationPlan.h"
#include "GuessedTime.h"

#include "core/edit/Edit.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/edit/UndoToken.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace bpu {

const char* planSkipKindName(PlanSkipKind k) {
    switch (k) {
    case PlanSkipKind::Idealized:
        return "idealized";
    case PlanSkipKind::TradeOff:
        return "trade-off";
    case PlanSkipKind::DoesNotApply:
        return "does-not-apply";
    case PlanSkipKind::NoGain:
        return "no-gain";
    case PlanSkipKind::RestsOnGuess:
        return "rests-on-guess";
    case PlanSkipKind::FewerPixels:
        return "fewer-pixels";
    }
    return "unknown";
}

size_t OptimizationPlan::firstRetrainingStep() const {
    for (size_t i = 0; i < steps.size(); ++i)
        if (steps[i].retrains)
            return i;
    return steps.size();
}

double OptimizationPlan::partGainMs(bool retraining) const {
    const size_t split = firstRetrainingStep();
    const double start = perImageMsBefore;
    const double mid = split == 0 ? start : steps[split - 1].perImageMsAfter;
    const double end = steps.empty() ? start : steps.back().perImageMsAfter;
    return retraining ? mid - end : start - mid;
}

double OptimizationPlan::sumOfStandaloneGainsMs() const {
    double sum = 0;
    for (const auto& st : steps)
        sum += st.standaloneGainMs;
    return sum;
}

OptimizationPlan buildOptimizationPlan(Session& s, size_t maxSteps, const Progress& progress) {
    OptimizationPlan plan;
    plan.latencyMsBefore = s.cost().latencyMs;
    plan.fpsBefore = s.cost().fps;
    plan.perImageMsBefore = s.cost().perImageMs;
    if (maxSteps == SIZE_MAX)
        maxSteps = static_cast<size_t>(std::max(0.0, s.target().planMaxSteps.value));
    // Already in order of their standalone gain: estimateFindingGains ranks them (Advisor::rankFindings).
    // Copied out: the steps re-analyse the session, which sets its findings aside meanwhile.
    struct Candidate {
        RuleId rule;
        std::string cause, title;
        EditList fix;
        double standaloneGainMs;
        bool tradeOff;
        bool idealized;
        bool fewerPixels;
        bool retrains;
        bool unproven;
    };
    std::vector<Candidate> order;
    for (const Finding& f : s.findings())
        if (!f.fix.empty() && f.estimatedGainMs.value_or(0) > kGainNoiseMs)
            order.push_back(
                {f.rule, f.cause, f.title, f.fix, *f.estimatedGainMs, f.evidence.contains("trade_off"),
                 std::any_of(f.fix.begin(), f.fix.end(), [](const EditPtr& e) { return e->idealized(); }),
                 f.fixEffects && f.fixEffects->costs.has(EditCost::LowersResolution),
                 f.fixEffects && f.fixEffects->costs.has(EditCost::NeedsRetraining), anyWeak(f.restsOn)});
    // Two parts: what needs no retraining first (a compile option, a placement, the I/O), each part in rank
    // order; a retraining fix is then judged on top of everything cheaper.
    std::stable_partition(order.begin(), order.end(), [](const Candidate& c) { return !c.retrains; });
    s.tryInPlace([&](Session& cur) {
        // The steps kept so far, as one token: they are reverted together with one re-estimate (at 100k
        // nodes a step's fix can touch every tensor, and each revert was a whole re-analysis).
        UndoToken landed;
        try {
            for (size_t i = 0; i < order.size() && plan.steps.size() < maxSteps; ++i) {
                progress.checkCancel();
                progress(double(i) / double(order.size()), "optimization plan");
                const Candidate& f = order[i];
                auto skip = [&](PlanSkipKind kind, std::string why, std::string detail = {}) {
                    plan.skipped.push_back(
                        {f.rule, kind, f.cause, f.title, std::move(why), std::move(detail)});
                };
                if (f.idealized) {
                    skip(PlanSkipKind::Idealized,
                         "an idealized what-if (the cost of a waste), not a change the model's owner can "
                         "make");
                    continue;
                }
                if (f.fewerPixels) {
                    char ms[32];
                    std::snprintf(ms, sizeof ms, "%.3f", f.standaloneGainMs);
                    skip(
                        PlanSkipKind::FewerPixels,
                        "a smaller input: most of what it saves is less work on fewer pixels, another model; "
                        "the finding counts its alignment part (" +
                            std::string(ms) + " ms), which no step of the plan can apply alone");
                    continue;
                }
                if (f.tradeOff && cur.objective() == Objective::Latency) {
                    skip(
                        PlanSkipKind::TradeOff,
                        "a throughput trade-off (batching raises the latency per frame), not a latency gain");
                    continue;
                }
                const double before = cur.cost().perImageMs;
                const GuessedTime guessed = guessedTime(cur);
                UndoToken token;
                try {
                    token = applyEditList(cur, f.fix);
                } catch (const EditError& e) {
                    skip(PlanSkipKind::DoesNotApply,
                         "does not apply after the earlier steps (one of them removed or changed what it "
                         "edits)",
                         e.what());
                    continue;
                }
                const double after = cur.cost().perImageMs;
                if (before - after <= kGainNoiseMs) {
                    token.revert(cur);
                    skip(PlanSkipKind::NoGain, "saves nothing on top of the earlier steps");
                    continue;
                }
                if (const double onGuesses = gainOnGuessesMs(guessed, cur);
                    std::abs(onGuesses) > kGainNoiseMs) {
                    token.revert(cur);
                    char ms[32];
                    std::snprintf(ms, sizeof ms, "%.3f", onGuesses);
                    skip(PlanSkipKind::RestsOnGuess, "its gain rests on nodes without an inferred shape (" +
                                                         std::string(ms) +
                                                         " ms of it): a guess, not a step to apply");
                    continue;
                }
                plan.steps.push_back({f.rule, f.cause, f.title, f.fix, f.standaloneGainMs, before - after,
                                      cur.cost().latencyMs, cur.cost().fps, after, f.retrains, f.unproven});
                landed.absorb(std::move(token));
            }
        } catch (...) {
            landed.revert(cur);
            throw;
        }
        landed.revert(cur);
    });
    progress(1.0, "optimization plan");
    return plan;
}

OptimizationPlan buildOptimizationPlanOnCopy(const Session& s, size_t maxSteps, const Progress& progress) {
    Session copy = s;
    return buildOptimizationPlan(copy, maxSteps, progress);
}

} // namespace bpu
