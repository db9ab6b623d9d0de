// SPDX-License-Identifier: MIT
#include "Analyzer.h"

#include "Passes.h"

#include <algorithm>

namespace bpu {

namespace {

int severityRank(const std::string& s) { return s == "high" ? 0 : s == "medium" ? 1 : 2; }

using Pass = void (*)(AnalysisContext&);
const std::pair<const char*, Pass> kFacts[] = {
    {"placement", runPlacement}, {"fusion", runFusion},     {"segments", runSegments}, {"quantize/dequantize", runQdq},
    {"padding", runPadding},     {"lifetimes", runLifetimes}, {"traffic", runTraffic},
};
const Pass kFindings[] = {findPlacementIssues, findQdqIssues,   findFusionIssues, findPaddingIssues,
                          findGroupConv,       findFeatureMaps, findLargeWeights, findShortcuts,
                          findBatchMode,       findTransforms};

} // namespace

void Analyzer::rankFindings(std::vector<Finding>& findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        // Unknown gain ranks as zero: above fixes the model says would not pay, below the ones that would.
        double ga = a.estimatedGainMs.value_or(0), gb = b.estimatedGainMs.value_or(0);
        if (ga != gb)
            return ga > gb;
        return severityRank(a.severity) < severityRank(b.severity);
    });
}

void Analyzer::addFindings(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                           AnalysisResult& r) {
    r.findings.clear();
    AnalysisContext c{g, target, options, r};
    for (Pass p : kFindings)
        p(c);
    rankFindings(r.findings);
}

AnalysisResult Analyzer::analyze(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                                 const Progress& progress, const Reuse& reuse) {
    AnalysisResult r;
    AnalysisContext c{g, target, options, r};
    if (reuse.previous && reuse.dirty && reuse.previous->metrics.size() == g.nodes.size()) {
        r.metrics = reuse.previous->metrics;
        for (NodeId id : *reuse.dirty)
            r.metrics[id.value] = computeNodeMetrics(g, g.node(id));
        r.totals = totalsOf(g, r.metrics);
    } else {
        r.metrics = computeAllMetrics(g, &r.totals);
    }
    const size_t count = std::size(kFacts) + 1;
    for (size_t i = 0; i < std::size(kFacts); ++i) {
        progress.checkCancel();
        progress(double(i) / double(count), kFacts[i].first);
        kFacts[i].second(c);
    }
    for (const auto& a : r.nodes) {
        switch (a.placement) {
        case Placement::BPU: ++r.summary.bpuNodes; break;
        case Placement::CPU: ++r.summary.cpuNodes; break;
        case Placement::Folded: ++r.summary.foldedNodes; break;
        }
    }
    if (reuse.findings) {
        progress(double(count - 1) / double(count), "findings");
        addFindings(g, target, options, r);
    }
    progress(1.0, "analysis done");
    return r;
}

} // namespace bpu
