// SPDX-License-Identifier: MIT
#include "Session.h"

// Transitional (issue 44): the session asks the advice layer above it for findings and their gains, until
// a workbench owns the findings and the session is only the what-if state.
#include "core/advice/Advisor.h"
#include "core/analysis/AnalysisResult.h"
#include "core/analysis/Analyzer.h"
#include "core/cost/CostModel.h"

#include <atomic>
#include <cmath>

namespace bpu {

Session::Session(Graph g, std::shared_ptr<const TargetProfile> target, AnalysisOptions options)
    : graph_(std::make_shared<Graph>(std::move(g)))
    , target_(std::move(target))
    , options_(std::move(options)) {
    fullReestimate();
}

Session::Session(const Session&) = default;
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(const Session&) = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

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
    *analysis_ =
        Analyzer::analyze(*graph_, *target_, options_, {{}, cancel_}, {nullptr, nullptr, &ops(), &index_});
    if (withFindings)
        Advisor::addFindings(*graph_, *target_, options_, *analysis_);
    cost_ = CostModel::estimate(*graph_, *analysis_, *target_, options_.deploy);
    findingsStale_ = !withFindings;
    gainsEstimated_ = false;
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
    Analyzer::reanalyze(*graph_, *target_, options_, index_, dirty, *analysis_, {{}, cancel_});
    cost_ = CostModel::estimate(*graph_, *analysis_, *target_, options_.deploy);
    findingsStale_ = true;
    gainsEstimated_ = false;
}

const std::vector<Finding>& Session::findings() {
    if (findingsStale_) {
        Advisor::addFindings(*graph_, *target_, options_, *analysis_);
        findingsStale_ = false;
        gainsEstimated_ = false;
    }
    return analysis_->findings;
}

std::vector<Finding>& Session::mutableFindings() {
    findings();
    return analysis_->findings;
}

std::vector<Finding>& Session::mutableFoldedFindings() {
    findings();
    return analysis_->foldedFindings;
}

std::vector<Finding>& Session::mutableGuessedFindings() {
    findings();
    return analysis_->guessedFindings;
}

void Session::tryInPlace(const std::function<void(Session&)>& trials) {
    findings();
    std::vector<Finding> found = std::move(analysis_->findings);
    std::vector<Finding> folded = std::move(analysis_->foldedFindings);
    std::vector<Finding> guessed = std::move(analysis_->guessedFindings);
    const double perImageMs = cost_.perImageMs;
    const bool gains = gainsEstimated_;
    auto restore = [&] {
        // Every revert is exact (tst_edits: each edit and its revert equal a fresh analysis); should one not
        // be, the estimate is made again rather than left off.
        if (std::abs(cost_.perImageMs - perImageMs) > kGainNoiseMs)
            runAnalysis(false);
        analysis_->findings = std::move(found);
        analysis_->foldedFindings = std::move(folded);
        analysis_->guessedFindings = std::move(guessed);
        findingsStale_ = false;
        gainsEstimated_ = gains;
    };
    try {
        trials(*this);
    } catch (...) {
        restore();
        throw;
    }
    restore();
}

void Session::setObjective(Objective o) {
    if (o != objective_)
        findingsStale_ = true;
    objective_ = o;
}

void Session::estimateFindingGains(const Progress& progress) {
    Advisor::estimateGains(*this, progress);
    gainsEstimated_ = true;
}

} // namespace bpu
