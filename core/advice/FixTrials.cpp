// SPDX-License-Identifier: MIT
// The fix trials (Advisor::estimateGains): each finding's recommended change is applied to the session,
// re-estimated and reverted, and its gain is what the estimate says it saved.
#include "Advisor.h"
#include "FindingKinds.h"

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

/// What a fix would do, tried on a session and reverted.
struct FixTrial {
    double gainMs = 0;    ///< per-image latency saved
    double latencyMs = 0; ///< one inference after the fix (of the whole batch when it batches)
    double fps = 0;       ///< images per second after the fix, one thread
    int batch = 1;
};

/// What applying `fix` does to `s`, its gain measured against `perImageMsBefore` (the session's latency per
/// image now); the fix is reverted before it returns. Throws EditError (the session untouched) if it does
/// not apply.
FixTrial tryFix(Session& s, const EditList& fix, double perImageMsBefore) {
    // One re-estimate for the whole fix, however many edits it holds (a placement override per CPU node),
    // and one for its revert.
    UndoToken token = applyEditList(s, fix);
    // Per image: a batch edit changes how many images one inference serves.
    const CostEstimate& c = s.cost();
    const FixTrial t{perImageMsBefore - c.perImageMs, c.latencyMs, c.fps, c.batch};
    token.revert(s);
    return t;
}

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

} // namespace

void Advisor::estimateGains(Session& s, const Progress& progress) {
    std::vector<Finding>& findings = s.mutableFindings();
    // Findings often share a fix (one remove_boundary_qdq for every boundary pass): estimate each fix once.
    std::map<std::string, size_t> slotOf;
    std::vector<const EditList*> fixes;
    std::vector<size_t> findingSlot(findings.size(), SIZE_MAX);
    for (size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        if (f.fix.empty())
            continue;
        std::string key; // the fix's identity: its edits in order
        for (const auto& e : f.fix)
            key += e->describe() + '\n';
        auto [it, fresh] = slotOf.try_emplace(std::move(key), fixes.size());
        if (fresh)
            fixes.push_back(&f.fix);
        findingSlot[i] = it->second;
    }
    // The trials re-analyse the session, which clears its findings: tryInPlace sets them aside (`fixes`
    // points into them; moving the vector keeps its elements where they are) and puts them back after.
    // Each trial is measured against the latency per image now.
    const double perImageMsBefore = s.cost().perImageMs;
    std::vector<std::variant<FixTrial, std::string>> outcome(fixes.size());
    bool stopped = false;
    s.tryInPlace([&](Session& cur) {
        for (size_t i = 0; i < fixes.size(); ++i) {
            if (progress.cancel && progress.cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                break;
            }
            try {
                outcome[i] = tryFix(cur, *fixes[i], perImageMsBefore);
            } catch (const EditListError& e) {
                // A one-edit fix: the reason alone; a longer one names the edit that does not apply.
                outcome[i] = fixes[i]->size() == 1 ? e.reason() : std::string(e.what());
            } catch (const EditError& e) {
                outcome[i] = std::string(e.what());
            }
        }
    });
    if (stopped)
        throw Cancelled();
    std::vector<Finding>& back = s.mutableFindings(); // the same findings, restored by tryInPlace
    const CostEstimate& cost = s.cost();
    const TargetProfile& target = s.target();
    std::vector<bool> slower(back.size(), false);
    const double perImageMs = cost.perImageMs;
    for (size_t i = 0; i < back.size(); ++i) {
        if (findingSlot[i] == SIZE_MAX)
            continue;
        Finding& f = back[i];
        if (const FixTrial* t = std::get_if<FixTrial>(&outcome[findingSlot[i]])) {
            // A fix that does not make the model faster is not a recommendation: such a finding is dropped
            // (a gain within rounding of zero is zero, and no gain is ever negative), and so is one saving
            // less than the profile's finding_min_gain_us: under the estimate's resolution, dozens of such
            // rows (ssdlite had 40 under 1 us) bury the findings that matter.
            slower[i] = t->gainMs <= std::max(kGainNoiseMs, target.findingMinGainUs.value / 1000.0);
            f.estimatedGainMs = std::max(0.0, t->gainMs);
            const double share = perImageMs > 0 ? *f.estimatedGainMs / perImageMs : 0;
            f.severity =
                severityForShare(share, target.severityHighShare.value, target.severityMediumShare.value);
            f.evidence["gain_share_of_latency"] = share;
            if (t->batch != cost.batch)
                describeBatchTradeOff(f, cost, *t);
        } else {
            f.evidence["fix_not_applicable"] = std::get<std::string>(outcome[findingSlot[i]]);
        }
    }
    size_t keep = 0;
    for (size_t i = 0; i < back.size(); ++i) {
        if (slower[i])
            continue;
        if (keep != i)
            back[keep] = std::move(back[i]);
        ++keep;
    }
    back.resize(keep);
    rankFindings(back);
}

} // namespace bpu
