// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisOptions.h"
#include "AnalysisResult.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"
#include "core/util/Progress.h"

namespace bpu {

/// Runs every analysis pass over a graph for one target profile and returns the result as a value.
class Analyzer {
public:
    static AnalysisResult analyze(const Graph& g, const TargetProfile& target, const AnalysisOptions& options = {},
                                  const Progress& progress = {});
    /// Orders findings: estimated gain first (when the cost engine filled it), then severity.
    static void rankFindings(std::vector<Finding>& findings);
};

} // namespace bpu
