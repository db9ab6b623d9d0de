// SPDX-License-Identifier: MIT
#include "Session.h"

#include "Edit.h"
#include "EditError.h"
#include "core/analysis/Analyzer.h"
#include "core/cost/CostModel.h"

namespace bpu {

Session::Session(Graph g, std::shared_ptr<const TargetProfile> target, AnalysisOptions options)
    : graph_(std::move(g)), target_(std::move(target)), options_(std::move(options)) {
    fullReestimate();
}

void Session::setTarget(std::shared_ptr<const TargetProfile> target) {
    target_ = std::move(target);
    fullReestimate();
}

void Session::runAnalysis(bool withFindings) {
    analysis_ = Analyzer::analyze(graph_, *target_, options_, {}, {nullptr, nullptr, withFindings});
    cost_ = CostModel::estimate(graph_, analysis_, *target_);
    findingsStale_ = !withFindings;
}

void Session::fullReestimate() { runAnalysis(true); }

void Session::reestimate(const std::vector<NodeId>& dirty) {
    Analyzer::Reuse reuse{&analysis_, &dirty, false};
    AnalysisResult next = Analyzer::analyze(graph_, *target_, options_, {}, reuse);
    analysis_ = std::move(next);
    cost_ = CostModel::estimate(graph_, analysis_, *target_);
    findingsStale_ = true;
}

const std::vector<Finding>& Session::findings() {
    if (findingsStale_) {
        Analyzer::addFindings(graph_, *target_, options_, analysis_);
        findingsStale_ = false;
    }
    return analysis_.findings;
}

void Session::estimateFindingGains() {
    findings();
    const double base = cost_.totalUs;
    for (auto& f : analysis_.findings) {
        if (f.fix.is_null() || !f.fix.contains("edits"))
            continue;
        Session trial = *this;
        try {
            auto edits = editsFromJson(f.fix);
            for (auto& e : edits)
                e->apply(trial);
            // Per image: a batch edit changes how many images one inference serves.
            const double perImageBase = base / cost_.batch;
            const double perImageTrial = trial.cost_.totalUs / trial.cost_.batch;
            f.estimatedGainMs = (perImageBase - perImageTrial) / 1000.0;
        } catch (const EditError& e) {
            f.evidence["fix_not_applicable"] = e.what();
        }
    }
    Analyzer::rankFindings(analysis_.findings);
}

} // namespace bpu
