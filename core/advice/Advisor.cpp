// SPDX-License-Identifier: MIT
#include "Advisor.h"

#include "Rules.h"

#include <algorithm>

namespace bpu {

namespace {

using Rule = void (*)(AnalysisContext&);
const Rule kRules[] = {findPlacementIssues, findQdqIssues,   findFusionIssues,       findPaddingIssues,
                       findGroupConv,       findFeatureMaps, findLargeWeights,       findShortcuts,
                       findBatchMode,       findTransforms,  findSeparateActivations};

} // namespace

void Advisor::rankFindings(std::vector<Finding>& findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        // Unknown gain ranks as zero: above fixes the model says would not pay, below the ones that would.
        double ga = a.estimatedGainMs.value_or(0), gb = b.estimatedGainMs.value_or(0);
        if (ga != gb)
            return ga > gb;
        return a.severity < b.severity; // High first
    });
}

void Advisor::addFindings(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                          AnalysisResult& r) {
    r.findings.clear();
    AnalysisContext c{g, target, options, r};
    for (Rule rule : kRules)
        rule(c);
    rankFindings(r.findings);
}

} // namespace bpu
