// SPDX-License-Identifier: MIT
#include "Analyzer.h"

#include "Passes.h"

#include <algorithm>

namespace bpu {

namespace {
int severityRank(const std::string& s) { return s == "high" ? 0 : s == "medium" ? 1 : 2; }
} // namespace

void Analyzer::rankFindings(std::vector<Finding>& findings) {
    std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
        double ga = a.estimatedGainMs.value_or(-1), gb = b.estimatedGainMs.value_or(-1);
        if (ga != gb)
            return ga > gb;
        return severityRank(a.severity) < severityRank(b.severity);
    });
}

AnalysisResult Analyzer::analyze(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                                 const Progress& progress) {
    AnalysisResult r;
    AnalysisContext c{g, target, options, r};
    r.metrics = computeAllMetrics(g, &r.totals);

    using Pass = void (*)(AnalysisContext&);
    static const std::pair<const char*, Pass> passes[] = {
        {"placement", runPlacement},   {"fusion", runFusion},         {"segments", runSegments},
        {"quantize/dequantize", runQdq}, {"padding", runPadding},     {"lifetimes", runLifetimes},
        {"traffic", runTraffic},       {"findings", findPlacementIssues}, {"findings", findQdqIssues},
        {"findings", findFusionIssues}, {"findings", findPaddingIssues}, {"findings", findGroupConv},
        {"findings", findFeatureMaps}, {"findings", findLargeWeights}, {"findings", findShortcuts},
        {"findings", findBatchMode},   {"findings", findTransforms},
    };
    const size_t count = std::size(passes);
    for (size_t i = 0; i < count; ++i) {
        progress.checkCancel();
        progress(double(i) / double(count), passes[i].first);
        passes[i].second(c);
    }
    for (const auto& a : r.nodes) {
        switch (a.placement) {
        case Placement::BPU: ++r.summary.bpuNodes; break;
        case Placement::CPU: ++r.summary.cpuNodes; break;
        case Placement::Folded: ++r.summary.foldedNodes; break;
        }
    }
    rankFindings(r.findings);
    progress(1.0, "analysis done");
    return r;
}

} // namespace bpu
