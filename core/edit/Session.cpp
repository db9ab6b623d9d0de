// SPDX-License-Identifier: MIT
#include "Session.h"

#include "Edit.h"
#include "EditError.h"
#include "OptionEdits.h"
#include "core/analysis/Analyzer.h"
#include "core/cost/CostModel.h"

#include <map>
#include <variant>

namespace bpu {

Session::Session(Graph g, std::shared_ptr<const TargetProfile> target, AnalysisOptions options)
    : graph_(std::move(g))
    , target_(std::move(target))
    , options_(std::move(options)) {
    fullReestimate();
}

void Session::setTarget(std::shared_ptr<const TargetProfile> target) {
    target_ = std::move(target);
    fullReestimate();
}

const OpTable& Session::ops() {
    if (!ops_ || !ops_->fits(graph_, *target_))
        ops_ = OpTable::build(graph_, *target_);
    return *ops_;
}

void Session::runAnalysis(bool withFindings) {
    index_ = AnalysisIndex(graph_, ops());
    analysis_ =
        Analyzer::analyze(graph_, *target_, options_, {}, {nullptr, nullptr, withFindings, &ops(), &index_});
    cost_ = CostModel::estimate(graph_, analysis_, *target_);
    findingsStale_ = !withFindings;
}

void Session::fullReestimate() {
    runAnalysis(true);
}

void Session::reestimate(const std::vector<NodeId>& dirty) {
    if (index_.fits(ops()))
        index_.refresh(graph_, dirty);
    else
        index_ = AnalysisIndex(graph_, ops());
    // In place: the previous analysis' storage (reason strings, padded shapes, groups) is reused.
    Analyzer::reanalyze(graph_, *target_, options_, index_, dirty, analysis_);
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
    // Findings often share a fix (one remove_boundary_qdq for every boundary pass): estimate each fix once.
    std::map<std::string, std::variant<double, std::string>> byFix;
    for (auto& f : analysis_.findings) {
        if (f.fix.is_null() || !f.fix.contains("edits"))
            continue;
        auto [it, fresh] = byFix.try_emplace(f.fix.dump());
        if (fresh) {
            Session trial = *this;
            try {
                auto edits = editsFromJson(f.fix);
                // A fix may hold hundreds of option edits (a placement override per CPU node): apply their
                // option changes and re-estimate once, not after each (the same end state: an option edit
                // depends only on the options and the graph).
                bool stale = false;
                for (auto& e : edits) {
                    if (auto* o = dynamic_cast<OptionEdit*>(e.get())) {
                        o->applyDeferred(trial);
                        stale = true;
                    } else {
                        e->apply(trial); // re-estimates with every option change so far
                        stale = false;
                    }
                }
                if (stale)
                    trial.reestimate({});
                // Per image: a batch edit changes how many images one inference serves.
                const double perImageBase = base / cost_.batch;
                const double perImageTrial = trial.cost_.totalUs / trial.cost_.batch;
                it->second = (perImageBase - perImageTrial) / 1000.0;
            } catch (const EditError& e) {
                it->second = std::string(e.what());
            }
        }
        if (const double* gain = std::get_if<double>(&it->second))
            f.estimatedGainMs = *gain;
        else
            f.evidence["fix_not_applicable"] = std::get<std::string>(it->second);
    }
    Analyzer::rankFindings(analysis_.findings);
}

} // namespace bpu
