// SPDX-License-Identifier: MIT
#pragma once

#include "EditFwd.h"
#include "core/advice/Finding.h"
#include "core/advice/Objective.h"
#include "core/analysis/AnalysisFwd.h"
#include "core/analysis/AnalysisIndex.h"
#include "core/analysis/AnalysisOptions.h"
#include "core/cost/CostEstimate.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"
#include "core/util/Indirect.h"
#include "core/util/Progress.h"

#include <functional>
#include <memory>
#include <vector>

namespace bpu {

/// Latency differences below this (1 ns) are the rounding of two estimates of the same model: a fix that
/// saves no more is no gain (Advisor::estimateGains, buildOptimizationPlan).
inline constexpr double kGainNoiseMs = 1e-6;

/// A model under what-if: the graph, the user's analysis options, the target, and the current analysis and
/// cost, kept up to date incrementally as edits land. Value type (the graph is shared copy-on-write); a copy
/// costs the analysis and cost tables (~80 MB at 100k nodes), so nothing copies one per trial: a finding's
/// fix is applied and reverted in place (Advisor::estimateGains), a sweep reverts each point.
class Session {
public:
    Session(Graph g, std::shared_ptr<const TargetProfile> target, AnalysisOptions options = {});
    // Defaulted in Session.cpp, where AnalysisResult is complete (Indirect).
    Session(const Session&);
    Session(Session&&) noexcept;
    Session& operator=(const Session&);
    Session& operator=(Session&&) noexcept;
    ~Session();

    const Graph& graph() const { return *graph_; }
    /// The current graph, shared: copying a session or taking this is cheap; the session copies the graph
    /// only when it is next edited while still shared (copy-on-write), so a holder never sees it change.
    std::shared_ptr<const Graph> sharedGraph() const { return graph_; }
    const TargetProfile& target() const { return *target_; }
    std::shared_ptr<const TargetProfile> targetPtr() const { return target_; }
    const AnalysisOptions& options() const { return options_; }
    const AnalysisResult& analysis() const { return *analysis_; }
    const CostEstimate& cost() const { return cost_; }

    /// Re-estimates everything under other deployment settings (hb_compile's config: runtime input types,
    /// boundary ops removed); like the target, a session setting rather than an edit.
    void setDeploy(DeploySettings deploy);
    /// Re-estimates everything for another target profile.
    void setTarget(std::shared_ptr<const TargetProfile> target);

    // For edits: change state, then call one of the re-estimates.
    /// The graph to change; a graph still shared with a copy or a sharedGraph() holder is copied first.
    /// References from an earlier graph() may then point at the old copy.
    Graph& mutableGraph();
    /// Puts `g` in place of the graph and returns the one it replaces, without re-estimating (a structural
    /// edit, or its revert; fullReestimate follows).
    std::shared_ptr<Graph> replaceGraph(std::shared_ptr<Graph> g);
    AnalysisOptions& mutableOptions() { return options_; }
    /// After shapes changed on `dirty` nodes (re-inferred) or options changed: re-measures the dirty nodes,
    /// re-runs the linear analysis sweeps and the cost; findings are refreshed lazily (refreshFindings).
    void reestimate(const std::vector<NodeId>& dirty);
    /// From scratch (metrics of every node, every pass, findings).
    void fullReestimate();
    /// Findings for the current state (cheap if nothing changed since the last call).
    const std::vector<Finding>& findings();
    /// The same findings, to fill in: the advisor's fix trials set their gains and drop those that do not
    /// pay (Advisor::estimateGains).
    std::vector<Finding>& mutableFindings();
    /// The findings folded below the list (AnalysisResult::foldedFindings), for the advisor to fill.
    std::vector<Finding>& mutableFoldedFindings();
    /// The findings left out for resting on guessed shapes (AnalysisResult::guessedFindings), for the
    /// advisor.
    std::vector<Finding>& mutableGuessedFindings();
    /// Fills every finding's estimated gain by trying its fix on this session (Advisor::estimateGains, which
    /// says how); the front ends call it here until a workbench owns the findings.
    void estimateFindingGains(const Progress& progress = {});
    bool findingsStale() const { return findingsStale_; }
    /// The findings are the tried, merged and grouped list (estimateFindingGains ran on them since they were
    /// last raised), not the rules' raw one: what a comparison counts alike on both sides (issue 63).
    bool gainsEstimated() const { return gainsEstimated_ && !findingsStale_; }
    /// What the findings and the plan rank by (issue 62); changing it makes the findings stale (their gains
    /// are estimated again, in the new objective).
    Objective objective() const { return objective_; }
    void setObjective(Objective o);
    /// Runs `trials` on this session with its findings (and their estimated gains) set aside: the what-ifs a
    /// finding's gain or the optimization plan try are applied here and reverted, never on a copy (~80 MB
    /// at 100k nodes). `trials` must revert everything it applies, also when it throws; the findings come
    /// back after it (and the estimate is made again should a revert not have been exact).
    void tryInPlace(const std::function<void(Session&)>& trials);
    /// For a throwaway copy only (a sweep's): its re-estimates check `cancel` between passes and throw
    /// Cancelled, leaving the session half re-estimated, to be dropped. A point of a curve at 100k nodes
    /// takes seconds; closing the window or moving on must not wait for it. Null (the default): never
    /// cancelled.
    void setCancelFlag(const std::atomic<bool>* cancel) { cancel_ = cancel; }

private:
    void runAnalysis(bool withFindings);
    const OpTable& ops();

    std::shared_ptr<Graph> graph_; ///< never null; shared between session copies until one edits it
    std::shared_ptr<const TargetProfile> target_;
    /// The graph's operator-table lookups for target_: edits never change op types, so built once per target.
    std::shared_ptr<const OpTable> ops_;
    /// Shape facts the passes share, refreshed after each edit around the nodes it dirtied.
    AnalysisIndex index_;
    AnalysisOptions options_;
    /// Behind a pointer so that this header needs AnalysisResult's name only: most of the code sees a
    /// Session, few read its analysis, and those include AnalysisResult.h themselves.
    Indirect<AnalysisResult> analysis_;
    CostEstimate cost_;
    bool findingsStale_ = true;
    bool gainsEstimated_ = false;
    Objective objective_ = Objective::Latency;
    const std::atomic<bool>* cancel_ = nullptr;
};

} // namespace bpu
