// SPDX-License-Identifier: MIT
#pragma once

#include "FindingKinds.h"
#include "core/edit/EditFwd.h"
#include "core/util/Progress.h"

#include <cstddef>
#include <string>
#include <vector>

namespace bpu {

class Session;

/// One fix of the plan, applied on top of every step before it.
struct PlanStep {
    RuleId rule = RuleId::G1_1; ///< the finding the fix comes from (rule, cause, title)
    std::string cause, title;
    EditList edits;
    double standaloneGainMs = 0; ///< the finding's own gain per image, tried alone on the model
    /// What it saves per image here, after the steps before it (not the same: gains overlap)
    double gainMs = 0;
    double latencyMsAfter = 0; ///< one-thread latency per inference with this and every earlier step
    double fpsAfter = 0;
    double perImageMsAfter = 0; ///< latencyMsAfter / batch: what gainMs and combinedGainMs are measured in
    /// The fix needs retraining or fine-tuning (EditCost::NeedsRetraining): a step of the plan's second part
    /// (issue 62), taken after every step that needs none.
    bool retrains = false;
    /// The finding's gain rests on a parameter the calibration does not identify or an unsourced assumption
    /// (issue 62, Finding::restsOn): the step is kept, marked.
    bool unproven = false;
};

/// Why the plan left a finding's fix out.
enum class PlanSkipKind {
    Idealized,    ///< an idealized what-if, no change the owner can make
    TradeOff,     ///< batching: faster per image, slower per frame
    DoesNotApply, ///< an earlier step removed or changed what it edits
    NoGain,       ///< saves nothing on top of the earlier steps
    RestsOnGuess, ///< its gain comes from nodes without an inferred shape (issue 61)
    FewerPixels,  ///< a smaller input: most of what it saves is less work on another model (issue 61)
};

/// "idealized", "trade-off", "does-not-apply", "no-gain", "rests-on-guess", "fewer-pixels" (the JSON's
/// `kind`).
const char* planSkipKindName(PlanSkipKind k);

/// A finding's fix the plan tried and left out, with why.
struct PlanSkip {
    RuleId rule = RuleId::G1_1;
    PlanSkipKind kind = PlanSkipKind::Idealized;
    std::string cause, title, reason;
    /// The engine's own words when the fix failed to apply (which node or tensor an earlier step removed):
    /// for a tooltip or the JSON, too long for the report's first page, which prints `reason`.
    std::string detail;
};

/// The combined effect of the top fixes: applied greedily in order of their standalone gain, each one
/// re-estimated on top of the previous ones, so the cumulative latency after each step is the engine's,
/// not a sum of gains (gains overlap: two fixes removing the same DDR traffic save it once).
struct OptimizationPlan {
    double latencyMsBefore = 0, fpsBefore = 0;
    double perImageMsBefore = 0; ///< latencyMsBefore / batch
    std::vector<PlanStep> steps;
    std::vector<PlanSkip> skipped;
    double sumOfStandaloneGainsMs() const;
    /// The index of the first step that needs retraining (steps.size() when none does): the steps before it
    /// are the plan's first part (compile options, placement, I/O; no retraining), the rest its second.
    size_t firstRetrainingStep() const;
    /// What one part saves per image: the first from the start, the second on top of the first.
    double partGainMs(bool retraining) const;
    /// Per image, as the step gains are (the same as per inference at batch 1).
    double combinedGainMs() const {
        return steps.empty() ? 0 : perImageMsBefore - steps.back().perImageMsAfter;
    }
};

/// Builds the plan from `s`'s findings, whose gains are estimated (Advisor::estimateGains), in two parts
/// (issue 62): first the fixes that need no retraining, greedily in rank order, then those that do, on top
/// of them; `export --plan N` takes the first N steps in that order. At most
/// `maxSteps` steps (the profile's plan_max_steps by default, when `maxSteps` is SIZE_MAX). Concrete fixes
/// only: a fix holding an idealized edit (Edit::idealized) is skipped with the reason, and so are a fix that
/// batches images (a throughput trade-off, not a latency gain), one that no longer applies after the
/// earlier steps, one that saves nothing on top of them, one whose gain comes from nodes without an
/// inferred shape (a PARTIAL result's guesses), and an input size with fewer pixels (the plan's latency
/// would count the smaller input's less work as a fix; the finding counts its alignment part). `progress`'s
/// cancel flag stops it between steps (Cancelled is thrown). Built on `s` itself (Session::tryInPlace): the
/// steps are applied one after the other and all reverted before it returns, so `s` ends as it began,
/// findings and gains included, and no copy of the session is made (~80 MB at 100k nodes).
OptimizationPlan buildOptimizationPlan(Session& s, size_t maxSteps = SIZE_MAX, const Progress& progress = {});
/// The same for a session that must not be touched even for a while (a report's input): built on a copy.
OptimizationPlan buildOptimizationPlanOnCopy(const Session& s, size_t maxSteps = SIZE_MAX,
                                             const Progress& progress = {});

} // namespace bpu
