// SPDX-License-Identifier: MIT
#include "Session.h"

#include "EditList.h"
#include "UndoToken.h"
#include "core/advice/Advisor.h"
#include "core/analysis/Analyzer.h"
#include "core/cost/CostModel.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <variant>

namespace bpu {

namespace {
/// Batching serves more images per inference but every frame waits for the whole batch: the gain is per
/// image (throughput); say what it costs per frame.
void describeBatchTradeOff(Finding& f, const CostEstimate& base, const Session::Trial& t) {
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

Session::Session(Graph g, std::shared_ptr<const TargetProfile> target, AnalysisOptions options)
    : graph_(std::make_shared<Graph>(std::move(g)))
    , target_(std::move(target))
    , options_(std::move(options)) {
    fullReestimate();
}

void Session::setDeploy(DeploySettings deploy) {
    options_.deploy = std::move(deploy);
    fullReestimate();
}

void Session::setTarget(std::shared_ptr<const TargetProfile> target) {
    target_ = std::move(target);
    fullReestimate();
}

Graph& Session::mutableGraph() {
    if (graph_.use_count() > 1) {
        graph_ = std::make_shared<Graph>(*graph_);
    } else {
        // The last other owner let go (its release decrement is what use_count read): order its reads of the
        // graph before our writes.
        std::atomic_thread_fence(std::memory_order_acquire);
    }
    return *graph_;
}

std::shared_ptr<Graph> Session::replaceGraph(std::shared_ptr<Graph> g) {
    std::swap(graph_, g);
    return g;
}

const OpTable& Session::ops() {
    if (!ops_ || !ops_->fits(*graph_, *target_))
        ops_ = OpTable::build(*graph_, *target_);
    return *ops_;
}

void Session::runAnalysis(bool withFindings) {
    index_ = AnalysisIndex(*graph_, ops());
    analysis_ = Analyzer::analyze(*graph_, *target_, options_, {{}, cancel_},
                                  {nullptr, nullptr, withFindings, &ops(), &index_});
    cost_ = CostModel::estimate(*graph_, analysis_, *target_, options_.deploy);
    findingsStale_ = !withFindings;
}

void Session::fullReestimate() {
    runAnalysis(true);
}

void Session::reestimate(const std::vector<NodeId>& dirty) {
    if (index_.fits(ops()))
        index_.refresh(*graph_, dirty);
    else
        index_ = AnalysisIndex(*graph_, ops());
    // In place: the previous analysis' storage (reason strings, padded shapes, groups) is reused.
    Analyzer::reanalyze(*graph_, *target_, options_, index_, dirty, analysis_, {{}, cancel_});
    cost_ = CostModel::estimate(*graph_, analysis_, *target_, options_.deploy);
    findingsStale_ = true;
}

const std::vector<Finding>& Session::findings() {
    if (findingsStale_) {
        Advisor::addFindings(*graph_, *target_, options_, analysis_);
        findingsStale_ = false;
    }
    return analysis_.findings;
}

Session::Trial Session::trial(const EditList& fix, double perImageMsBefore) {
    // One re-estimate for the whole fix, however many edits it holds (a placement override per CPU node),
    // and one for its revert.
    UndoToken token = applyEditList(*this, fix);
    // Per image: a batch edit changes how many images one inference serves.
    const Trial t{perImageMsBefore - cost_.perImageMs, cost_.latencyMs, cost_.fps, cost_.batch};
    token.revert(*this);
    return t;
}

void Session::tryInPlace(const std::function<void(Session&)>& trials) {
    findings();
    std::vector<Finding> found = std::move(analysis_.findings);
    const double perImageMs = cost_.perImageMs;
    auto restore = [&] {
        // Every revert is exact (tst_edits: each edit and its revert equal a fresh analysis); should one not
        // be, the estimate is made again rather than left off.
        if (std::abs(cost_.perImageMs - perImageMs) > kGainNoiseMs)
            runAnalysis(false);
        analysis_.findings = std::move(found);
        findingsStale_ = false;
    };
    try {
        trials(*this);
    } catch (...) {
        restore();
        throw;
    }
    restore();
}

void Session::estimateFindingGains(const Progress& progress) {
    findings();
    // Findings often share a fix (one remove_boundary_qdq for every boundary pass): estimate each fix once.
    std::map<std::string, size_t> slotOf;
    std::vector<const EditList*> fixes;
    std::vector<size_t> findingSlot(analysis_.findings.size(), SIZE_MAX);
    for (size_t i = 0; i < analysis_.findings.size(); ++i) {
        const Finding& f = analysis_.findings[i];
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
    // The trials re-analyse this session, which clears its findings: tryInPlace sets them aside (`fixes`
    // points into them; moving the vector keeps its elements where they are). Each trial is measured
    // against the latency per image now.
    const double perImageMsBefore = cost_.perImageMs;
    std::vector<std::variant<Trial, std::string>> outcome(fixes.size());
    bool stopped = false;
    tryInPlace([&](Session&) {
        for (size_t i = 0; i < fixes.size(); ++i) {
            if (progress.cancel && progress.cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                break;
            }
            try {
                outcome[i] = trial(*fixes[i], perImageMsBefore);
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
    std::vector<bool> slower(analysis_.findings.size(), false);
    const double perImageMs = cost_.perImageMs;
    for (size_t i = 0; i < analysis_.findings.size(); ++i) {
        if (findingSlot[i] == SIZE_MAX)
            continue;
        Finding& f = analysis_.findings[i];
        if (const Trial* t = std::get_if<Trial>(&outcome[findingSlot[i]])) {
            // A fix that does not make the model faster is not a recommendation: such a finding is dropped
            // (a gain within rounding of zero is zero, and no gain is ever negative), and so is one saving
            // less than the profile's finding_min_gain_us: under the estimate's resolution, dozens of such
            // rows (ssdlite had 40 under 1 us) bury the findings that matter.
            slower[i] = t->gainMs <= std::max(kGainNoiseMs, target_->findingMinGainUs.value / 1000.0);
            f.estimatedGainMs = std::max(0.0, t->gainMs);
            const double share = perImageMs > 0 ? *f.estimatedGainMs / perImageMs : 0;
            f.severity =
                severityForShare(share, target_->severityHighShare.value, target_->severityMediumShare.value);
            f.evidence["gain_share_of_latency"] = share;
            if (t->batch != cost_.batch)
                describeBatchTradeOff(f, cost_, *t);
        } else {
            f.evidence["fix_not_applicable"] = std::get<std::string>(outcome[findingSlot[i]]);
        }
    }
    size_t keep = 0;
    for (size_t i = 0; i < analysis_.findings.size(); ++i) {
        if (slower[i])
            continue;
        if (keep != i)
            analysis_.findings[keep] = std::move(analysis_.findings[i]);
        ++keep;
    }
    analysis_.findings.resize(keep);
    Advisor::rankFindings(analysis_.findings);
}

} // namespace bpu
