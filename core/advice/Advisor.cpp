// SPDX-License-Identifier: MIT
#include "Advisor.h"

#include "Rules.h"

#include "core/edit/Edit.h"

#include <algorithm>

namespace bpu {

namespace {

using Rule = void (*)(AnalysisContext&);
const Rule kRules[] = {findPlacementIssues, findQdqIssues,   findFusionIssues, findPaddingIssues,
                       findGroupConv,       findFeatureMaps, findOutputTail,   findLargeWeights,
                       findShortcuts,       findBatchMode,   findTransforms,   findSeparateActivations};

} // namespace

void Advisor::rankFindings(std::vector<Finding>& findings, Objective objective) {
    std::stable_sort(findings.begin(), findings.end(), [objective](const Finding& a, const Finding& b) {
        // A concrete fix's gain in the objective first: unknown ranks as zero, after every fix that pays (a
        // batch has none in latency). Then the cost of the waste (a what-if's upper bound), then the rule's
        // judgement.
        // Issue 62: a waste no change removes (padding a model output's channels) after every other.
        if (a.unavoidable != b.unavoidable)
            return b.unavoidable;
        auto gain = [objective](const Finding& f) {
            return objective == Objective::Throughput ? (f.estimatedGainMs ? f.fpsGain.value_or(0) : 0)
                                                      : f.estimatedGainMs.value_or(0);
        };
        const double ga = gain(a), gb = gain(b);
        if (ga != gb)
            return ga > gb;
        const double wa = a.wasteUpperBoundMs.value_or(0), wb = b.wasteUpperBoundMs.value_or(0);
        if (wa != wb)
            return wa > wb;
        return a.severity < b.severity; // High first
    });
}

void Advisor::addFindings(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                          AnalysisResult& r) {
    r.findings.clear();
    r.foldedFindings.clear();
    r.guessedFindings.clear();
    AnalysisContext c{g, target, options, r};
    for (Rule rule : kRules)
        rule(c);
    // A fix is a change the model's owner can make: one holding an idealized edit states what the waste
    // costs instead (the rules put those in whatIf; this keeps a rule that did not from passing one off).
    for (Finding& f : r.findings)
        if (std::any_of(f.fix.begin(), f.fix.end(), [](const EditPtr& e) { return e->idealized(); })) {
            f.whatIf.insert(f.whatIf.end(), f.fix.begin(), f.fix.end());
            f.fix.clear();
        }
    rankFindings(r.findings);
}

} // namespace bpu
