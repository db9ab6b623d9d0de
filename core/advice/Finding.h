// SPDX-License-Identifier: MIT
#pragma once

#include "FindingKinds.h"
#include "RestsOn.h"
#include "core/edit/EditCost.h"
#include "core/edit/EditFwd.h"
#include "core/model/Ids.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bpu {

/// What a concrete fix does besides saving time, measured by its trial (Advisor::estimateGains).
struct FixEffects {
    EditCosts costs;          ///< its edits' costs; ThroughputTradeOff too when the trial changed the batch
    int64_t macsChange = 0;   ///< per image, after minus before
    int64_t paramsChange = 0; ///< after minus before
};

/// A finding merged into or grouped under another (issue 46), as it was raised, with its own figures.
struct FindingPart {
    RuleId rule = RuleId::G1_1;
    std::string cause, title;
    std::vector<NodeId> nodes;
    std::optional<double> estimatedGainMs;   ///< its own fix's gain, tried alone
    std::optional<double> wasteUpperBoundMs; ///< its own what-if's
};

/// How the fix trials choose a finding's fix among its candidates (issue 48; FixSearch.cpp).
enum class FixSearch {
    None,            ///< the fix is the rule's own
    InputResolution, ///< the candidate input size with the lowest latency per input pixel
    ChannelCount,    ///< the channel count (aligned up, or down) that saves the most; each conv's own gain
                     ///< listed
};

/// One actionable finding, tied to a rule of the design guide by its id exactly as in guide-en.md.
struct Finding {
    RuleId rule = RuleId::G1_1;
    Severity severity = Severity::Low;
    /// What the finding is about, unique per rule (a CPU op type, a padded layer, a transform pattern): the
    /// engine raises one finding per (rule, cause), listing every node it covers with per-node evidence.
    std::string cause;
    std::string title;
    std::vector<NodeId> nodes;
    nlohmann::json evidence = nlohmann::json::object();
    std::string recommendation;
    /// A concrete change the model's owner can make (no edit in it idealized()), as edits the session
    /// applies; empty when there is none.
    EditList fix;
    EditList alternativeFix; ///< another way to apply it the user may prefer (its gain is not estimated)
    /// Changes to choose the fix from by trying each (an input size): the search (`fixSearch`) sets `fix`
    /// to the one it chooses, or leaves it empty when none pays, and says why in the evidence.
    FixSearch fixSearch = FixSearch::None;
    std::vector<EditList> fixCandidates;
    /// The fix's gain per image, re-estimated with the fix applied (Advisor::estimateGains); null until then
    /// or without a fix.
    std::optional<double> estimatedGainMs;
    /// Images per second with the profile's two threads, after the fix minus before (issue 62): what the
    /// `throughput` objective ranks by. Null until the fix is tried or without a fix.
    std::optional<double> fpsGain;
    std::optional<FixEffects> fixEffects; ///< null until the fix is tried
    /// An idealized edit (assume_*, a forced fusion) that removes the waste outright: what the waste costs.
    EditList whatIf;
    /// The what-if's effect per image: the cost of this waste, an upper bound on what any fix saves.
    std::optional<double> wasteUpperBoundMs;
    /// The waste is at a model output the application reads (a class count, a 1-channel probability map):
    /// real, but no change to the model removes it there (issue 62). Ranked after every other finding.
    bool unavoidable = false;
    /// The assumptions (ids of the profile's `assumptions` block) the rule's gain takes for granted, set by
    /// the rule (issue 62).
    std::vector<std::string> assumes;
    /// What the shown gain rests on: the profile keys pricing at least half of the time its trial changed
    /// (the fix's; the what-if's when there is no fix), and `assumes`. Filled by the fix trials; a weak
    /// entry caps the severity at medium.
    std::vector<RestsOn> restsOn;
    /// Findings of other rules whose fix was this very change, merged into this one (one change, one row).
    std::vector<FindingPart> also;
    /// The findings of this rule and kind of fix grouped into this one, each as raised; its fix and what-if
    /// are theirs together, its figures re-estimated with all of them applied. Empty when it stands alone.
    std::vector<FindingPart> occurrences;
};

} // namespace bpu
