// SPDX-License-Identifier: MIT
#include "FixTrial.h"

#include "Finding.h"
#include "GuessedTime.h"

#include "core/analysis/AnalysisResult.h"
#include "core/cost/PricedTime.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/edit/UndoToken.h"
#include "core/model/BakedSizes.h"
#include "core/model/Graph.h"

#include <algorithm>
#include <atomic>

namespace bpu {

namespace {

PricedTime pricedNow(const Session& s) {
    return pricedTime(s.graph(), s.analysis(), s.cost(), s.target(), s.objective() == Objective::Throughput);
}

} // namespace

FixTrial tryEdits(Session& s, const EditList& edits, double perImageMsBefore, const GuessedTime* guessed,
                  double fpsBefore, const PricedTime* priced) {
    // MACs per image (a batch edit multiplies them per inference, not per image); parameters per model.
    const auto macsPerImage = [&] {
        return s.analysis().totals.macs / std::max(1, s.cost().batch);
    };
    const int64_t macsBefore = macsPerImage(), paramsBefore = s.analysis().totals.params;
    // One re-estimate for the whole list, however many edits it holds (a placement override per CPU node),
    // and one for its revert.
    UndoToken token = applyEditList(s, edits);
    // Per image: a batch edit changes how many images one inference serves.
    const CostEstimate& c = s.cost();
    FixTrial t;
    t.gainMs = perImageMsBefore - c.perImageMs;
    t.latencyMs = c.latencyMs;
    t.perImageMs = c.perImageMs;
    t.fps = c.fps;
    t.fpsGain = c.fpsByThreads[1] - fpsBefore;
    t.batch = c.batch;
    t.macsChange = macsPerImage() - macsBefore;
    t.paramsChange = s.analysis().totals.params - paramsBefore;
    if (guessed)
        t.gainOnGuessesMs = gainOnGuessesMs(*guessed, s);
    if (priced)
        t.restsOnKeys = keysCarryingChange(*priced, pricedNow(s));
    token.revert(s);
    return t;
}

std::vector<TrialOutcome> tryEach(Session& s, const std::vector<const EditList*>& lists,
                                  const Progress& progress) {
    const double perImageMsBefore = s.cost().perImageMs;
    const GuessedTime guessed = guessedTime(s);
    const double fpsBefore = s.cost().fpsByThreads[1];
    const PricedTime priced = pricedNow(s);
    std::vector<TrialOutcome> out(lists.size());
    bool stopped = false;
    s.tryInPlace([&](Session& cur) {
        for (size_t i = 0; i < lists.size(); ++i) {
            if (progress.cancel && progress.cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                return;
            }
            try {
                out[i] = tryEdits(cur, *lists[i], perImageMsBefore, &guessed, fpsBefore, &priced);
            } catch (const EditListError& e) {
                out[i] =
                    TrialRefusal{lists[i]->size() == 1 ? e.reason() : std::string(e.what()), e.brokenNode()};
            } catch (const EditError& e) {
                out[i] = TrialRefusal{e.what(), e.brokenNode()};
            }
        }
    });
    if (stopped)
        throw Cancelled();
    return out;
}

std::string refusalText(const Graph& g, const TrialRefusal& no, nlohmann::json& evidence) {
    if (no.brokenNode.empty())
        return no.why;
    const NodeId broken = g.findNode(no.brokenNode);
    std::string names;
    nlohmann::json sizes = nlohmann::json::array();
    for (const BakedSize& b : bakedSizesBehind(g, broken, std::nullopt, 2)) {
        if (b.node == broken)
            continue;
        names += (names.empty() ? "" : ", ") + bakedSizeText(g, b);
        sizes.push_back({{"node", g.node(b.node).name}, {"input", b.input}, {"value", b.value}});
    }
    if (names.empty())
        return no.why;
    evidence["baked_sizes"] = std::move(sizes);
    return no.why + " (the export fixes the size at " + names +
           ": export with a dynamic size for this change to apply)";
}

void dropMarked(std::vector<Finding>& findings, const std::vector<bool>& drop) {
    size_t keep = 0;
    for (size_t i = 0; i < findings.size(); ++i) {
        if (drop[i])
            continue;
        if (keep != i)
            findings[keep] = std::move(findings[i]);
        ++keep;
    }
    findings.resize(keep);
}

} // namespace bpu
