// SPDX-License-Identifier: MIT
// The fix searches (issue 48): a finding whose fix is a choice among values (an input size) has each
// candidate tried on the session, and the rule's criterion chooses among what they measured.
#include "FixSearch.h"

#include "Finding.h"
#include "FindingUtil.h"
#include "FixTrial.h"

#include "core/edit/Edit.h"
#include "core/edit/EditError.h"
#include "core/edit/EditList.h"
#include "core/edit/ReexportEdit.h"
#include "core/edit/Session.h"
#include "core/model/BakedSizes.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>
#include <variant>

namespace bpu {

namespace {

using Outcome = TrialOutcome;

std::string signedPct(double frac) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f%%", frac * 100);
    return buf;
}

/// One candidate input size as tried: its size and, when it applied, what it measured.
struct SizeTrial {
    int64_t h = 0, w = 0;
    const FixTrial* t = nullptr;
    double msPerMpx = 0; ///< latency per image per million input pixels
};

std::string sizeText(int64_t h, int64_t w) {
    return std::to_string(h) + "x" + std::to_string(w);
}

/// "512x512 (-3.1% pixels): 1.234 ms per image (-0.123 ms), MACs -3.0%, 2.41 ms per megapixel"
std::string describeSize(const SizeTrial& s, double todayPx, double perImageMsBefore, double macsBefore) {
    const FixTrial& t = *s.t;
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%s (%s pixels): %.3f ms per image (%+.3f ms), MACs %s, %.3f ms per megapixel",
                  sizeText(s.h, s.w).c_str(), signedPct(double(s.h * s.w) / todayPx - 1).c_str(),
                  t.perImageMs, t.perImageMs - perImageMsBefore,
                  macsBefore > 0 ? signedPct(double(t.macsChange) / macsBefore).c_str() : "n/a", s.msPerMpx);
    return buf;
}

/// Why the input sizes an export refused do not apply, and what a re-export at them would give (issue 61).
struct BakedReport {
    /// The sizes the export fixed behind the node the first refused size breaks, as "'X' (Resize sizes
    /// 1x256x33x33)"; empty when no refusal traces to one.
    std::vector<std::string> baked;
    nlohmann::json bakedJson = nlohmann::json::array();
    /// Per candidate: the re-export trial's list (assume_reexported at that size), when one was tried.
    std::vector<EditList> reexport;
    std::vector<std::optional<Outcome>> reexported;
};

/// For each candidate the export refused because a downstream node breaks: the baked sizes behind that
/// node, named; and, when every size the export fixed can be rewritten, re-export trials for the nearest
/// `maxTrials` of them (candidates come nearest to today's pixel count first).
BakedReport traceBakedSizes(const Graph& g, const Finding& f, const std::vector<EditList>& candidates,
                            const std::vector<Outcome>& outcomes, size_t maxTrials) {
    BakedReport rep;
    rep.reexport.resize(candidates.size());
    rep.reexported.resize(candidates.size());
    const auto& ev = f.evidence;
    const auto& inputDims = ev.at("input_dims");
    const int hAxis = ev.at("h_axis").get<int>(), wAxis = ev.at("w_axis").get<int>();
    const TracedInput traced{inputDims.at(size_t(hAxis)).get<int64_t>(),
                             inputDims.at(size_t(wAxis)).get<int64_t>()};
    bool first = true;
    for (size_t i = 0; i < candidates.size() && i < outcomes.size(); ++i) {
        const auto* why = std::get_if<TrialRefusal>(&outcomes[i]);
        if (!why || why->brokenNode.empty())
            continue;
        if (first) {
            first = false;
            for (const BakedSize& b : bakedSizesBehind(g, g.findNode(why->brokenNode), traced)) {
                rep.baked.push_back(bakedSizeText(g, b));
                rep.bakedJson.push_back({{"node", g.node(b.node).name},
                                         {"op", g.node(b.node).opType},
                                         {"input", b.input},
                                         {"value", b.value},
                                         {"broken_node", why->brokenNode}});
            }
            if (rep.baked.empty())
                return rep;
            const std::vector<BakedSize> all = bakedSizes(g, traced);
            if (all.empty() ||
                std::any_of(all.begin(), all.end(), [](const BakedSize& b) { return !b.rewritable; }))
                maxTrials = 0; // a size held by no one constant: no estimate of a re-export
        }
        if (maxTrials == 0)
            continue;
        --maxTrials;
        const nlohmann::json edit = candidates[i].front()->toJson();
        rep.reexport[i] = {std::make_shared<ReexportEdit>(edit.at("input").get<std::string>(),
                                                          edit.at("shape").get<std::vector<int64_t>>())};
    }
    return rep;
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i)
        s += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return s;
}

/// InputResolution: ranks the sizes by latency per input pixel (that is what the padding changes; fewer
/// pixels alone are not a fix) and offers the best at or below today's pixel count as the fix (when it is
/// faster per pixel than today and saves time) and the best above it as the alternative (when faster per
/// pixel). Returns false when it offers neither.
bool chooseInputSize(Finding& f, const std::vector<EditList>& candidates,
                     const std::vector<Outcome>& outcomes, const BakedReport& baked,
                     std::optional<double> wasteMs, double perImageMsBefore, double macsBefore,
                     double minGainMs) {
    const auto& ev = f.evidence;
    const auto& inputDims = ev.at("input_dims");
    const int hAxis = ev.at("h_axis").get<int>(), wAxis = ev.at("w_axis").get<int>();
    const int64_t h0 = inputDims.at(size_t(hAxis)).get<int64_t>(),
                  w0 = inputDims.at(size_t(wAxis)).get<int64_t>();
    const double todayPx = double(h0 * w0);
    const double todayPerMpx = perImageMsBefore / todayPx * 1e6;
    nlohmann::json tried = nlohmann::json::array();
    const SizeTrial* below = nullptr;
    const SizeTrial* above = nullptr;
    std::vector<SizeTrial> sizes(candidates.size());
    size_t belowAt = 0, aboveAt = 0;
    std::vector<std::string> bakedRefused; ///< the sizes refused for a size the export fixed
    SizeTrial firstBaked;                  ///< the nearest of them to today's pixel count
    SizeTrial reexport;                    ///< the best re-export estimate per pixel (t null: none)
    for (size_t i = 0; i < candidates.size() && i < outcomes.size(); ++i) {
        const nlohmann::json dims = candidates[i].front()->toJson().at("shape");
        SizeTrial& s = sizes[i];
        s.h = dims.at(size_t(hAxis)).get<int64_t>();
        s.w = dims.at(size_t(wAxis)).get<int64_t>();
        nlohmann::json row = {{"shape", dims}};
        if (const auto* why = std::get_if<TrialRefusal>(&outcomes[i])) {
            row["not_applicable"] = why->why;
            if (!why->brokenNode.empty() && !baked.baked.empty()) {
                if (bakedRefused.empty())
                    firstBaked = s;
                bakedRefused.push_back(sizeText(s.h, s.w));
            }
            if (i < baked.reexported.size() && baked.reexported[i]) {
                if (const auto* t = std::get_if<FixTrial>(&*baked.reexported[i])) {
                    const double perMpx = t->perImageMs / double(s.h * s.w) * 1e6;
                    row["as_reexported"] = {{"latency_ms_per_image", t->perImageMs},
                                            {"gain_ms", t->gainMs},
                                            {"ms_per_megapixel", perMpx}};
                    if (!reexport.t || perMpx < reexport.msPerMpx)
                        reexport = {s.h, s.w, t, perMpx};
                } else {
                    row["as_reexported"] = {
                        {"not_applicable", std::get<TrialRefusal>(*baked.reexported[i]).why}};
                }
            }
            tried.push_back(std::move(row));
            continue;
        }
        s.t = &std::get<FixTrial>(outcomes[i]);
        const double px = double(s.h * s.w);
        s.msPerMpx = s.t->perImageMs / px * 1e6;
        row["latency_ms_per_image"] = s.t->perImageMs;
        row["gain_ms"] = s.t->gainMs;
        row["ms_per_megapixel"] = s.msPerMpx;
        row["macs_change"] = s.t->macsChange;
        row["pixels_change"] = int64_t(px - todayPx);
        tried.push_back(std::move(row));
        if (s.msPerMpx >= todayPerMpx)
            continue; // no better use of the chip than today's size: not the padding's fix
        if (px <= todayPx) {
            if (s.t->gainMs > minGainMs && (!below || s.msPerMpx < below->msPerMpx)) {
                below = &s;
                belowAt = i;
            }
        } else if (!above || s.msPerMpx < above->msPerMpx) {
            above = &s;
            aboveAt = i;
        }
    }
    f.evidence["candidates"] = std::move(tried);
    f.evidence["ms_per_megapixel"] = todayPerMpx;
    // Issue 61: a size refused because the export fixed a size in a constant is named with the recipe, and
    // what a re-export at it would give is estimated (an estimate of another file: never the fix).
    std::string bakedText;
    if (!bakedRefused.empty()) {
        f.evidence["baked_sizes"] = baked.bakedJson;
        // The recipe names the size a re-export would serve best, when one is cheaper per pixel than today.
        const bool better = reexport.t && reexport.msPerMpx < todayPerMpx;
        const SizeTrial& at = better ? reexport : firstBaked;
        const std::string atText = sizeText(at.h, at.w);
        const size_t listed = std::min<size_t>(3, bakedRefused.size());
        std::vector<std::string> some(bakedRefused.begin(), bakedRefused.begin() + std::ptrdiff_t(listed));
        if (bakedRefused.size() > listed)
            some.push_back(std::to_string(bakedRefused.size() - listed) + " more");
        bakedText = " " + joined(some) + (bakedRefused.size() > 1 ? " do" : " does") +
                    " not apply as exported: the export fixes the size at " + joined(baked.baked) +
                    ". Export with a dynamic size, or at " + atText + ", for " +
                    (bakedRefused.size() > 1 ? "them" : "it") + " to apply.";
        if (reexport.t) {
            char buf[320];
            std::snprintf(
                buf, sizeof buf,
                " As re-exported at %s (an estimate of the file a re-export would write, not a fix): "
                "%.3f ms per image (%+.3f ms), %.3f ms per megapixel (today %.3f)%s.",
                sizeText(reexport.h, reexport.w).c_str(), reexport.t->perImageMs,
                reexport.t->perImageMs - perImageMsBefore, reexport.msPerMpx, todayPerMpx,
                better ? "" : ": the best per pixel of those estimated, and no better than today");
            bakedText += buf;
            f.evidence["reexport"] = {{"shape", {reexport.h, reexport.w}},
                                      {"latency_ms_per_image", reexport.t->perImageMs},
                                      {"gain_ms", reexport.t->gainMs},
                                      {"ms_per_megapixel", reexport.msPerMpx}};
        }
    }
    if (!below && !above) {
        // Not one size applied (its shapes are baked into constants, as yolo12n's attention Reshapes):
        // the finding stays, without a fix, saying why; sizes that applied and did not pay say nothing.
        const auto firstWhy = std::find_if(outcomes.begin(), outcomes.end(), [](const Outcome& o) {
            return std::holds_alternative<TrialRefusal>(o);
        });
        const bool noneApplied = std::none_of(outcomes.begin(), outcomes.end(), [](const Outcome& o) {
            return std::holds_alternative<FixTrial>(o);
        });
        if (!bakedText.empty()) {
            f.recommendation += bakedText;
            return true;
        }
        if (!noneApplied || firstWhy == outcomes.end())
            return false;
        f.recommendation += " No other input size applies to this model as exported: " +
                            std::get<TrialRefusal>(*firstWhy).why +
                            ". Export it with shapes computed from the input (dynamic H/W) to make the size "
                            "a choice.";
        return true;
    }
    char today[96];
    std::snprintf(today, sizeof today, " (today %s: %.3f ms per megapixel).", sizeText(h0, w0).c_str(),
                  todayPerMpx);
    std::string text =
        "Input sizes that are multiples of the model's stride, ranked by latency per input pixel" +
        std::string(today);
    if (below) {
        f.fix = candidates[belowAt];
        f.evidence["chosen"] = {below->h, below->w};
        // Issue 61: what a smaller input saves is partly less work (fewer pixels: another model) and partly a
        // better use of the chip per pixel. Only the latter is the padding's: what today's pixels would save
        // at the candidate's cost per pixel, at most what the padding costs (the what-if) and what it saves.
        const double px = double(below->h * below->w);
        const double saved = below->t->gainMs;
        const double perPixel = std::max(0.0, (todayPerMpx - below->msPerMpx) * todayPx / 1e6);
        const double alignment = std::min({perPixel, wasteMs.value_or(perPixel), saved});
        f.evidence["alignment_gain_ms"] = alignment;
        f.evidence["alignment_gain_per_pixel_ms"] = perPixel;
        f.evidence["pixels_change_share"] = px / todayPx - 1;
        text += " Fix: " + describeSize(*below, todayPx, perImageMsBefore, macsBefore) + ".";
        if (px < todayPx) {
            char buf[400];
            std::snprintf(buf, sizeof buf,
                          " %s: %.0f%% fewer pixels, %.3f ms less per image, of which %.3f ms is alignment "
                          "(today's pixels at its cost per pixel%s); the rest is less work on a smaller "
                          "input, another model, not a better use of the chip: the finding counts the "
                          "alignment only.",
                          sizeText(below->h, below->w).c_str(), (1 - px / todayPx) * 100, saved, alignment,
                          wasteMs && *wasteMs < perPixel ? ", at most what the padding costs" : "");
            text += buf;
            char title[96];
            std::snprintf(title, sizeof title, ": %s aligns them better (%.0f%% fewer pixels)",
                          sizeText(below->h, below->w).c_str(), (1 - px / todayPx) * 100);
            f.title += title;
        } else {
            f.title += ": " + sizeText(below->h, below->w) + " aligns them better";
        }
    }
    if (above) {
        f.alternativeFix = candidates[aboveAt];
        f.evidence["larger"] = {above->h, above->w};
        if (!below)
            f.title += ": " + sizeText(above->h, above->w) + " costs less per pixel, more per image";
        text +=
            std::string(below ? " Or, larger" : " Larger (more pixels, slower per image, less per pixel)") +
            ": " + describeSize(*above, todayPx, perImageMsBefore, macsBefore) + ".";
    }
    text += bakedText;
    text += " Accuracy may change: the model sees another resolution; fine-tune or retrain at it and check "
            "the accuracy before deploying.";
    f.recommendation = std::move(text);
    return true;
}

/// ChannelCount: the candidate (every listed conv at the aligned count, or at the next lower one) that
/// saves the most per image, when one saves at least `minGainMs`; returns its index, or SIZE_MAX. A change
/// that makes the model slower is not a fix: the finding keeps its what-if alone, and says what each count
/// measured.
size_t chooseChannelCount(Finding& f, const std::vector<EditList>& candidates,
                          const std::vector<Outcome>& outcomes, double minGainMs) {
    const int64_t today = f.evidence.value("channels", int64_t(0));
    nlohmann::json tried = nlohmann::json::array();
    size_t best = SIZE_MAX;
    std::string text;
    for (size_t i = 0; i < candidates.size() && i < outcomes.size(); ++i) {
        const int64_t to = candidates[i].front()->toJson().at("channels").get<int64_t>();
        nlohmann::json row = {{"channels", to}};
        const std::string change = std::to_string(today) + " -> " + std::to_string(to) + " channels";
        if (const auto* why = std::get_if<TrialRefusal>(&outcomes[i])) {
            row["not_applicable"] = why->why;
            text += " " + change + " does not apply: " + why->why + ".";
        } else {
            const FixTrial& t = std::get<FixTrial>(outcomes[i]);
            row["gain_ms"] = t.gainMs;
            row["macs_change"] = t.macsChange;
            row["params_change"] = t.paramsChange;
            char buf[160];
            std::snprintf(buf, sizeof buf, " %s: %+.3f ms per image, MACs %+lld, params %+lld%s.",
                          change.c_str(), -t.gainMs, static_cast<long long>(t.macsChange),
                          static_cast<long long>(t.paramsChange),
                          to > today ? " (the padding does real work)" : " (less work; accuracy may change)");
            text += buf;
            if (t.gainMs > minGainMs &&
                (best == SIZE_MAX || t.gainMs > std::get<FixTrial>(outcomes[best]).gainMs))
                best = i;
        }
        tried.push_back(std::move(row));
    }
    f.evidence["channel_candidates"] = std::move(tried);
    f.recommendation += " Measured, every listed conv together:" + text;
    if (best != SIZE_MAX)
        f.fix = candidates[best];
    else
        f.recommendation += " Neither count makes the model faster: no change is proposed.";
    return best;
}

} // namespace

void searchFixes(Session& s, const Progress& progress) {
    std::vector<Finding>& findings = s.mutableFindings();
    std::vector<size_t> which;
    std::vector<std::vector<EditList>> candidates(findings.size());
    for (size_t i = 0; i < findings.size(); ++i)
        if (findings[i].fixSearch != FixSearch::None && !findings[i].fixCandidates.empty()) {
            which.push_back(i);
            candidates[i] = findings[i].fixCandidates; // the findings are set aside during the trials
        }
    if (which.empty())
        return;
    const double perImageMsBefore = s.cost().perImageMs;
    const double macsBefore = double(s.analysis().totals.macs) / std::max(1, s.cost().batch);
    // Every candidate of every searched finding, tried in one pass; outcomes[i] are finding i's, in order.
    std::vector<const EditList*> lists;
    for (size_t i : which)
        for (const EditList& edits : candidates[i])
            lists.push_back(&edits);
    const std::vector<Outcome> all = tryEach(s, lists, progress);
    std::vector<std::vector<Outcome>> outcomes(findings.size());
    size_t at = 0;
    for (size_t i : which)
        for (size_t c = 0; c < candidates[i].size(); ++c)
            outcomes[i].push_back(all[at++]);
    const double minGainMs = std::max(kGainNoiseMs, s.target().findingMinGainUs.value / 1000.0);
    // The sizes an export refused: their baked sizes named, and a re-export estimated at the nearest few.
    // With them, each input-size finding's what-if: what its padding costs bounds the part of a smaller
    // size's gain that is alignment (the rest is fewer pixels).
    std::vector<BakedReport> baked(findings.size());
    std::vector<EditList> whatIfs(findings.size());
    std::vector<std::optional<double>> wasteMs(findings.size());
    {
        const std::vector<Finding>& now = s.mutableFindings();
        std::vector<const EditList*> more;
        for (size_t i : which)
            if (now[i].fixSearch == FixSearch::InputResolution) {
                baked[i] = traceBakedSizes(s.graph(), now[i], candidates[i], outcomes[i],
                                           size_t(std::max(0.0, s.target().reexportTrials.value)));
                for (const EditList& l : baked[i].reexport)
                    if (!l.empty())
                        more.push_back(&l);
                whatIfs[i] = now[i].whatIf; // the findings are set aside during the trials
                if (!whatIfs[i].empty())
                    more.push_back(&whatIfs[i]);
            }
        if (!more.empty()) {
            const std::vector<Outcome> res = tryEach(s, more, progress);
            size_t next = 0;
            for (size_t i : which) {
                for (size_t c = 0; c < baked[i].reexport.size(); ++c)
                    if (!baked[i].reexport[c].empty())
                        baked[i].reexported[c] = res[next++];
                if (!whatIfs[i].empty())
                    if (const auto* t = std::get_if<FixTrial>(&res[next++]))
                        wasteMs[i] = std::max(0.0, t->gainMs);
            }
        }
    }
    std::vector<bool> drop(findings.size(), false);
    // The fixes chosen that change several convs: each conv's own change is tried alone after.
    std::vector<std::pair<size_t, EditList>> perEdit;
    {
        std::vector<Finding>& back = s.mutableFindings();
        for (size_t i : which) {
            Finding& f = back[i];
            switch (f.fixSearch) {
            case FixSearch::InputResolution:
                drop[i] = !chooseInputSize(f, candidates[i], outcomes[i], baked[i], wasteMs[i],
                                           perImageMsBefore, macsBefore, minGainMs);
                break;
            case FixSearch::ChannelCount:
                if (chooseChannelCount(f, candidates[i], outcomes[i], minGainMs) != SIZE_MAX &&
                    f.fix.size() > 1)
                    perEdit.emplace_back(i, f.fix);
                break;
            case FixSearch::None:
                break;
            }
            f.fixCandidates.clear();
        }
    }
    if (!perEdit.empty()) {
        // Each conv's own change, alone: one-edit lists, the first kEvidenceItems of each fix.
        std::vector<std::vector<EditList>> single(perEdit.size());
        std::vector<const EditList*> lists1;
        for (size_t k = 0; k < perEdit.size(); ++k) {
            for (size_t e = 0; e < perEdit[k].second.size() && e < kEvidenceItems; ++e)
                single[k].push_back({perEdit[k].second[e]});
            for (const EditList& l : single[k])
                lists1.push_back(&l);
        }
        const std::vector<Outcome> flat = tryEach(s, lists1, progress);
        std::vector<std::vector<Outcome>> own(perEdit.size());
        size_t next = 0;
        for (size_t k = 0; k < perEdit.size(); ++k)
            for (size_t e = 0; e < single[k].size(); ++e)
                own[k].push_back(flat[next++]);
        std::vector<Finding>& back = s.mutableFindings();
        for (size_t k = 0; k < perEdit.size(); ++k) {
            nlohmann::json rows = nlohmann::json::array();
            for (size_t e = 0; e < own[k].size(); ++e) {
                const nlohmann::json edit = perEdit[k].second[e]->toJson();
                nlohmann::json row = {{"node", edit.value("node", std::string())},
                                      {"channels", edit.value("channels", int64_t(0))}};
                if (const auto* why = std::get_if<TrialRefusal>(&own[k][e]))
                    row["not_applicable"] = why->why;
                else
                    row["gain_ms"] = std::get<FixTrial>(own[k][e]).gainMs;
                rows.push_back(std::move(row));
            }
            back[perEdit[k].first].evidence["per_conv"] = std::move(rows);
        }
    }
    dropMarked(s.mutableFindings(), drop);
}

} // namespace bpu
