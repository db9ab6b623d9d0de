// SPDX-License-Identifier: MIT
// The fix trials (Advisor::estimateGains): each finding's recommended change is applied to the session,
// re-estimated and reverted, and its gain is what the estimate says it saved.
#include "Advisor.h"
#include "FindingGroups.h"
#include "FindingKinds.h"
#include "FixSearch.h"
#include "FixTrial.h"

#include "core/edit/Edit.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/edit/UndoToken.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <variant>

namespace bpu {

namespace {

/// Batching serves more images per inference but every frame waits for the whole batch: the gain is per
/// image (throughput); say what it costs per frame.
void describeBatchTradeOff(Finding& f, const CostEstimate& base, const FixTrial& t) {
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  " Trade-off: at batch %d the throughput rises from %.1f to %.1f FPS (%.3f ms less per "
                  "image), but one inference (the latency a frame sees) rises from %.3f ms to %.3f ms.",
                  t.batch, base.fps, t.fps, t.gainMs, base.latencyMs, t.latencyMs);
    f.recommendation += buf;
    f.evidence["trade_off"] = {{"batch_after", t.batch},
                               {"fps_before", base.fps},
                               {"fps_after", t.fps},
                               {"latency_ms_per_frame_before", base.latencyMs},
                               {"latency_ms_per_frame_after", t.latencyMs}};
}

/// Tries the fix and the what-if of the findings `which` (indices into the session's findings) and fills
/// their figures and severity; returns, for each finding, whether it is to be dropped (neither its fix nor
/// its what-if makes the model faster).
std::vector<bool> scoreFindings(Session& s, const std::vector<size_t>& which, const Progress& progress) {
    std::vector<Finding>& findings = s.mutableFindings();
    // Findings often share an edit list (one remove_boundary_qdq for every boundary pass): each distinct
    // list, fix or what-if, is tried once.
    std::map<std::string, size_t> slotOf;
    std::vector<const EditList*> lists;
    auto slot = [&](const EditList& edits) {
        if (edits.empty())
            return SIZE_MAX;
        std::string key; // the list's identity: its edits in order
        for (const auto& e : edits)
            key += e->describe() + '\n';
        auto [it, fresh] = slotOf.try_emplace(std::move(key), lists.size());
        if (fresh)
            lists.push_back(&edits);
        return it->second;
    };
    std::vector<size_t> fixSlot(findings.size(), SIZE_MAX), whatIfSlot(findings.size(), SIZE_MAX);
    for (size_t i : which) {
        fixSlot[i] = slot(findings[i].fix);
        whatIfSlot[i] = slot(findings[i].whatIf);
    }
    // Each trial is measured against the latency per image now; `lists` points into the findings, which
    // tryEach sets aside (moving the vector keeps its elements where they are) and puts back after.
    const std::vector<TrialOutcome> outcome = tryEach(s, lists, progress);
    std::vector<Finding>& back = s.mutableFindings(); // the same findings, restored by tryInPlace
    const CostEstimate& cost = s.cost();
    const TargetProfile& target = s.target();
    const double perImageMs = cost.perImageMs;
    // Under the estimate's resolution a saving is none: a gain within rounding of zero, and one under the
    // profile's finding_min_gain_us (dozens of such rows, ssdlite had 40 under 1 us, bury the ones that
    // matter).
    const double minGainMs = std::max(kGainNoiseMs, target.findingMinGainUs.value / 1000.0);
    auto shareOf = [&](double ms) {
        return perImageMs > 0 ? ms / perImageMs : 0;
    };
    std::vector<bool> drop(back.size(), false);
    for (size_t i : which) {
        Finding& f = back[i];
        bool tried = false, pays = false, unknown = false;
        if (fixSlot[i] != SIZE_MAX) {
            if (const FixTrial* t = std::get_if<FixTrial>(&outcome[fixSlot[i]])) {
                tried = true;
                const double gain = std::max(0.0, t->gainMs);
                if (t->gainMs > minGainMs) {
                    pays = true;
                    f.estimatedGainMs = gain;
                    FixEffects fx;
                    for (const auto& e : f.fix)
                        fx.costs |= e->costs();
                    if (t->batch != cost.batch)
                        fx.costs.add(EditCost::ThroughputTradeOff);
                    fx.macsChange = t->macsChange;
                    fx.paramsChange = t->paramsChange;
                    f.fixEffects = fx;
                    f.evidence["gain_share_of_latency"] = shareOf(gain);
                    if (t->batch != cost.batch)
                        describeBatchTradeOff(f, cost, *t);
                } else {
                    // A change that does not make the model faster is not a recommendation: the finding
                    // keeps its what-if (the waste is real) but offers no fix.
                    f.evidence["fix_without_gain"] = {{"edits", editListToJson(f.fix)}, {"gain_ms", gain}};
                    f.fix.clear();
                }
            } else {
                unknown = true;
                f.evidence["fix_not_applicable"] = std::get<std::string>(outcome[fixSlot[i]]);
            }
        }
        if (whatIfSlot[i] != SIZE_MAX) {
            if (const FixTrial* t = std::get_if<FixTrial>(&outcome[whatIfSlot[i]])) {
                tried = true;
                const double waste = std::max(0.0, t->gainMs);
                f.wasteUpperBoundMs = waste;
                f.evidence["waste_share_of_latency"] = shareOf(waste);
                pays = pays || t->gainMs > minGainMs;
            } else {
                unknown = true;
                f.evidence["what_if_not_applicable"] = std::get<std::string>(outcome[whatIfSlot[i]]);
            }
        }
        // Severity is a concrete fix's gain's share of the per-image latency; a finding without one is Low
        // (its waste is shown as an upper bound, not as what any change saves).
        f.severity = f.estimatedGainMs
                         ? severityForShare(shareOf(*f.estimatedGainMs), target.severityHighShare.value,
                                            target.severityMediumShare.value)
                         : Severity::Low;
        // Neither the fix nor the waste's removal makes the model faster: nothing to act on.
        drop[i] = tried && !pays && !unknown;
    }
    return drop;
}

} // namespace

void Advisor::estimateGains(Session& s, const Progress& progress) {
    // A fix that is a choice (an input size) is chosen first by trying the candidates.
    searchFixes(s, progress);
    // Each finding's own fix and what-if first: what does not pay goes, and each keeps its own figures.
    {
        std::vector<size_t> all(s.mutableFindings().size());
        for (size_t i = 0; i < all.size(); ++i)
            all[i] = i;
        const std::vector<bool> drop = scoreFindings(s, all, progress);
        dropMarked(s.mutableFindings(), drop);
    }
    rankFindings(s.mutableFindings());
    // One change, one finding; one rule and kind of fix, one finding (FindingGroups.h). A grouped finding's
    // edits are its members' together: its figures are those of all of them applied at once.
    const std::vector<size_t> grouped = mergeAndGroup(s.mutableFindings());
    if (!grouped.empty())
        dropMarked(s.mutableFindings(), scoreFindings(s, grouped, progress));
    std::vector<Finding>& findings = s.mutableFindings();
    rankFindings(findings);
    // A list a person reads: the rest are folded, whole, below it.
    const size_t max = static_cast<size_t>(std::max(1.0, s.target().findingsMax.value));
    std::vector<Finding>& folded = s.mutableFoldedFindings();
    folded.clear();
    if (findings.size() > max) {
        folded.assign(std::make_move_iterator(findings.begin() + std::ptrdiff_t(max)),
                      std::make_move_iterator(findings.end()));
        findings.resize(max);
    }
}

} // namespace bpu
