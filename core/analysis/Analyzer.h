// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisIndex.h"
#include "AnalysisOptions.h"
#include "AnalysisResult.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"
#include "core/util/Progress.h"

namespace bpu {

/// Reuse of an earlier run: metrics of nodes not in `dirty` are taken from `previous` (their shapes did
/// not change).
struct AnalysisReuse {
    const AnalysisResult* previous = nullptr;
    const std::vector<NodeId>* dirty = nullptr;
    /// The graph's operator-table lookups for this target (OpTable::build); built on the spot when null.
    const OpTable* ops = nullptr;
    /// The caller's index of the graph as it is now (AnalysisIndex(g, *ops)), used instead of building one.
    AnalysisIndex* index = nullptr;
};

/// Runs every fact pass (placement, Q/DQ, padding, fusion, lifetimes, traffic, roofline) over a graph for
/// one target profile and returns the result as a value. It states facts only: its findings list stays
/// empty, for the advice layer to fill (Advisor::addFindings).
class Analyzer {
public:
    using Reuse = AnalysisReuse;

    static AnalysisResult analyze(const Graph& g, const TargetProfile& target,
                                  const AnalysisOptions& options = {}, const Progress& progress = {},
                                  const Reuse& reuse = {});
    /// The what-if loop's re-analysis, in place: `r` is the previous analysis of this graph (same nodes and
    /// tensors) and its storage is reused; metrics of nodes not in `dirty` are kept. `ix` is the caller's
    /// index of this graph (built with AnalysisIndex(g, ops), refreshed with `dirty`). Findings are
    /// cleared. The result equals analyze() of the same graph and options.
    static void reanalyze(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                          AnalysisIndex& ix, const std::vector<NodeId>& dirty, AnalysisResult& r,
                          const Progress& progress = {});
};

} // namespace bpu
