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
#include "core/model/Completeness.h"

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

/// What the trials decided of each finding, by index into the session's findings.
struct Scores {
    std::vector<bool> drop;    ///< neither its fix nor its what-if makes the model faster
    std::vector<bool> guessed; ///< it names, or its fix or what-if changes, a node without a shape
};

/// Whether `f` is about a node whose output shape nobody knows (Completeness.h), itself or a finding merged
/// or grouped into it.
bool namesGuessedNode(const Graph& g, const Finding& f) {
    auto any = [&g](const std::vector<NodeId>& nodes) {
        return std::any_of(nodes.begin(), nodes.end(), [&g](NodeId id) {
            return id.valid() && id.value < g.nodes.size() && shapeGuessed(g, g.node(id));
        });
    };
    return any(f.nodes) ||
           std::any_of(f.also.begin(), f.also.end(), [&](const auto& p) { return any(p.nodes); }) ||
           std::any_of(f.occurrences.begin(), f.occurrences.end(),
                       [&](const auto& p) { return any(p.nodes); });
}

/// Tries the fix and the what-if of the findings `which` (indices into the session's findings) and fills
/// their figures and severity; says, for each finding, whether it is to be dropped and whether it rests on
/// a guessed shape (issue 61: left out of the list, counted in one note).
Scores scoreFindings(Session& s, const std::vector<size_t>& which, const Progress& progress) {
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
    Scores out{std::vector<bool>(back.size(), false), std::vector<bool>(back.size(), false)};
    for (size_t i : which) {
        Finding& f = back[i];
        bool tried = false, pays = false, unknown = false;
        // Any part of a gain or a waste on a node without a shape is a guess of what that node costs.
        bool guessed = namesGuessedNode(s.graph(), f);
        const FixTrial* shown = nullptr; // the trial whose figure the finding shows
        if (fixSlot[i] != SIZE_MAX) {
            if (const FixTrial* t = std::get_if<FixTrial>(&outcome[fixSlot[i]])) {
                tried = true;
                shown = t;
                guessed = guessed || std::abs(t->gainOnGuessesMs) > minGainMs;
                const double gain = std::max(0.0, t->gainMs);
                if (t->gainMs > minGainMs) {
                    pays = true;
                    f.estimatedGainMs = gain;
                    FixEffects fx;
                    for (const auto& e : f.fix)
                        fx.costs |= e->costs();
                    // An input size: the finding's gain is the alignment part alone (FixSearch.cpp), never
                    // the time fewer pixels save; a size with fewer pixels says what it costs.
                    if (f.fixSearch == FixSearch::InputResolution) {
                        if (const auto a = f.evidence.find("alignment_gain_ms"); a != f.evidence.end())
                            f.estimatedGainMs = std::min(gain, a->get<double>());
                        if (f.evidence.value("pixels_change_share", 0.0) < 0)
                            fx.costs.add(EditCost::LowersResolution);
                    }
                    if (t->batch != cost.batch)
                        fx.costs.add(EditCost::ThroughputTradeOff);
                    fx.macsChange = t->macsChange;
                    fx.paramsChange = t->paramsChange;
                    f.fixEffects = fx;
                    f.evidence["gain_share_of_latency"] = shareOf(*f.estimatedGainMs);
                    f.fpsGain = t->fpsGain;
                    if (t->batch != cost.batch) {
                        describeBatchTradeOff(f, cost, *t);
                        // Issue 62: one frame waits for the whole batch; in the latency objective that is
                        // no gain, whatever it does for the images per second (kept, ranked after every
                        // latency fix, with its FPS figure).
                        if (s.objective() == Objective::Latency) {
                            f.evidence["latency_gain_ms"] = cost.latencyMs - t->latencyMs;
                            f.evidence.erase("gain_share_of_latency");
                            f.estimatedGainMs.reset();
                        }
                    }
                } else {
                    // A change that does not make the model faster is not a recommendation: the finding
                    // keeps its what-if (the waste is real) but offers no fix.
                    f.evidence["fix_without_gain"] = {{"edits", editListToJson(f.fix)}, {"gain_ms", gain}};
                    f.fix.clear();
                }
            } else {
                unknown = true;
                f.evidence["fix_not_applicable"] =
                    refusalText(s.graph(), std::get<TrialRefusal>(outcome[fixSlot[i]]), f.evidence);
            }
        }
        if (whatIfSlot[i] != SIZE_MAX) {
            if (const FixTrial* t = std::get_if<FixTrial>(&outcome[whatIfSlot[i]])) {
                tried = true;
                guessed = guessed || std::abs(t->gainOnGuessesMs) > minGainMs;
                const double waste = std::max(0.0, t->gainMs);
                f.wasteUpperBoundMs = waste;
                if (f.fix.empty())
                    shown = t;
                f.evidence["waste_share_of_latency"] = shareOf(waste);
                pays = pays || t->gainMs > minGainMs;
            } else {
                unknown = true;
                f.evidence["what_if_not_applicable"] = std::get<TrialRefusal>(outcome[whatIfSlot[i]]).why;
            }
        }
        // Severity is a concrete fix's gain's share of the per-image latency (of the FPS, in the throughput
        // objective); a finding without one is Low (its waste is shown as an upper bound, not as what any
        // change saves).
        const double fpsBefore = cost.fpsByThreads[1];
        if (s.objective() == Objective::Throughput && f.estimatedGainMs && f.fpsGain && fpsBefore > 0)
            f.severity = severityForShare(*f.fpsGain / fpsBefore, target.severityHighShare.value,
                                          target.severityMediumShare.value);
        else
            f.severity = f.estimatedGainMs
                             ? severityForShare(shareOf(*f.estimatedGainMs), target.severityHighShare.value,
                                                target.severityMediumShare.value)
                             : Severity::Low;
        // Issue 62: a gain that rests on a parameter the calibration cannot identify, or on an assumption no
        // published source states, is never high.
        f.restsOn = restsOn(target, shown ? shown->restsOnKeys : std::vector<std::string>{}, f.assumes);
        if (anyWeak(f.restsOn) && f.severity == Severity::High)
            f.severity = Severity::Medium;
        // Neither the fix nor the waste's removal makes the model faster: nothing to act on.
        out.drop[i] = tried && !pays && !unknown;
        out.guessed[i] = guessed && !out.drop[i];
    }
    return out;
}

/// Drops what `scores` marks; the findings resting on a guess go to the session's guessed list, whole.
void apply(Session& s, const Scores& scores) {
    std::vector<Finding>& findings = s.mutableFindings();
    std::vector<Finding>& guessed = s.mutableGuessedFindings();
    std::vector<bool> drop = scores.drop;
    for (size_t i = 0; i < findings.size(); ++i)
        if (scores.guessed[i]) {
            guessed.push_back(findings[i]);
            drop[i] = true;
        }
    dropMarked(findings, drop);
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
        s.mutableGuessedFindings().clear();
        apply(s, scoreFindings(s, all, progress));
    }
    rankFindings(s.mutableFindings(), s.objective());
    // One change, one finding; one rule and kind of fix, one finding (FindingGroups.h). A grouped finding's
    // edits are its members' together: its figures are those of all of them applied at once.
    const std::vector<size_t> grouped = mergeAndGroup(s.mutableFindings());
    if (!grouped.empty())
        apply(s, scoreFindings(s, grouped, progress));
    std::vector<Finding>& findings = s.mutableFindings();
    rankFindings(findings, s.objective());
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
