// SPDX-License-Identifier: MIT
#include "Analyzer.h"

#include "Passes.h"
#include "core/util/CheckedMath.h"

#include <algorithm>
#include <optional>

namespace bpu {

namespace {

using Pass = void (*)(AnalysisContext&);
const std::pair<const char*, Pass> kFacts[] = {
    {"placement", runPlacement},
    {"deployment", runDeployment},
    {"fusion", runFusion},
    {"segments", runSegments},
    {"quantize/dequantize", runQdq},
    {"transitions", runTransitions},
    {"post-processing", runPostProcessing},
    {"padding", runPadding},
    {"lifetimes", runLifetimes},
    {"traffic", runTraffic},
};
/// Every fact pass over `r`, whose metrics are already set. The model-level lists start empty; the per-node
/// and per-tensor tables are overwritten in place (their storage is reused across re-analyses).
void runFacts(const Graph& g, const TargetProfile& target, const AnalysisOptions& options, AnalysisIndex& ix,
              AnalysisResult& r, const Progress& progress, const std::vector<NodeId>* dirty) {
    r.qdq.clear();
    r.crossings.clear();
    r.transitions.clear();
    r.headOutputs.clear();
    r.missed.clear();
    r.findings.clear();
    r.foldedFindings.clear();
    r.guessedFindings.clear();
    r.diagnostics.clear();
    r.summary = {};
    r.qdqFormat = false;
    r.ridgeIntensity = 0;
    // A config's node_info 'ON' places nodes like a user override; the user's own overrides win.
    std::optional<AnalysisOptions> merged;
    if (!options.deploy.nodePlacement.empty()) {
        merged = options;
        for (const auto& [name, p] : options.deploy.nodePlacement)
            merged->placementOverrides.emplace(name, p);
    }
    AnalysisContext c{g, target, merged ? *merged : options, r, &ix, dirty};
    const size_t count = std::size(kFacts);
    for (size_t i = 0; i < std::size(kFacts); ++i) {
        progress.checkCancel();
        progress(double(i) / double(count), kFacts[i].first);
        kFacts[i].second(c);
        // Tables the later passes read, once the placements they depend on are final.
        if (kFacts[i].second == runFusion)
            ix.fillAliases(g, r);
        else if (kFacts[i].second == runSegments)
            ix.fillPlacements(r);
    }
    // Counts of shapes beyond any device saturate (CheckedMath.h) rather than wrap: say so, once.
    int saturated = 0;
    std::string first;
    for (size_t i = 0; i < r.nodes.size(); ++i) {
        const NodeAnalysis& a = r.nodes[i];
        if (r.metrics[i].saturated || a.paddedMacs == kCountMax || a.ops == kCountMax ||
            a.ddrBytes == kCountMax || a.inputBytes == kCountMax || a.outputBytes == kCountMax ||
            a.weightBytes == kCountMax) {
            if (saturated++ == 0)
                first = g.nodes[i].name;
        }
    }
    if (saturated > 0)
        r.diagnostics.push_back(
            {DiagSeverity::Warning, DiagCode::CountsSaturated, g.path,
             std::to_string(saturated) + " node(s), first '" + first +
                 "', have MAC/byte counts beyond 2^63 (shapes no device could hold): the counts are "
                 "capped at 9223372036854775807 and their latency is not meaningful"});
    for (const auto& a : r.nodes) {
        switch (a.placement) {
        case Placement::BPU:
            ++r.summary.bpuNodes;
            break;
        case Placement::CPU:
            ++r.summary.cpuNodes;
            break;
        case Placement::Folded:
            ++r.summary.foldedNodes;
            break;
        }
    }
}

} // namespace

AnalysisResult Analyzer::analyze(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                                 const Progress& progress, const Reuse& reuse) {
    AnalysisResult r;
    if (reuse.previous && reuse.dirty && reuse.previous->metrics.size() == g.nodes.size()) {
        r.metrics = reuse.previous->metrics;
        for (NodeId id : *reuse.dirty)
            r.metrics[id.value] = computeNodeMetrics(g, g.node(id));
        r.totals = totalsOf(g, r.metrics);
    } else {
        r.metrics = computeAllMetrics(g, &r.totals);
    }
    std::shared_ptr<const OpTable> built;
    const OpTable* ops = reuse.ops && reuse.ops->fits(g, target) ? reuse.ops : nullptr;
    if (!ops) {
        built = OpTable::build(g, target);
        ops = built.get();
    }
    std::optional<AnalysisIndex> own;
    AnalysisIndex* ix = reuse.index && reuse.index->fits(*ops) ? reuse.index : &own.emplace(g, *ops);
    runFacts(g, target, options, *ix, r, progress, nullptr);
    progress(1.0, "analysis done");
    return r;
}

void Analyzer::reanalyze(const Graph& g, const TargetProfile& target, const AnalysisOptions& options,
                         AnalysisIndex& ix, const std::vector<NodeId>& dirty, AnalysisResult& r,
                         const Progress& progress) {
    if (r.metrics.size() != g.nodes.size()) {
        r = analyze(g, target, options, progress, {nullptr, nullptr, &ix.ops()});
        return;
    }
    for (NodeId id : dirty)
        r.metrics[id.value] = computeNodeMetrics(g, g.node(id));
    // The totals from the index (edits never change op types: the histogram stays).
    ModelMetrics& t = r.totals;
    t.macs = t.ops = t.params = t.weightBytes = t.activationBytes = 0;
    t.nodesIncomplete = t.nodesSaturated = 0;
    for (const auto& m : r.metrics) {
        t.macs = satAdd(t.macs, m.macs);
        t.ops = satAdd(t.ops, m.ops);
        t.activationBytes = satAdd(t.activationBytes, m.outputBytes);
        t.nodesIncomplete += !m.complete;
        t.nodesSaturated += m.saturated;
    }
    for (size_t i = 0; i < ix.elements.size(); ++i)
        if (ix.ops().initializer(TensorId{static_cast<uint32_t>(i)})) {
            // TensorShape::elements() and Tensor::bytes(), as totalsOf() counts them.
            const int64_t e = ix.elements[i], b = ix.dtypeBytes[i];
            int64_t bytes = 0;
            if (e > 0 && b > 0 && __builtin_mul_overflow(e, b, &bytes))
                bytes = 0;
            t.params = satAdd(t.params, std::max<int64_t>(e, 0));
            t.weightBytes = satAdd(t.weightBytes, bytes);
        }
    // Constant nodes holding weights (constantNodeParameters(), as totalsOf() counts them).
    t.paramsFromConstants = 0;
    for (TensorId id : ix.ops().constantParams) {
        const int64_t e = std::max<int64_t>(ix.elements[id.value], 0), b = ix.dtypeBytes[id.value];
        int64_t bytes = 0;
        if (e > 0 && b > 0 && __builtin_mul_overflow(e, b, &bytes))
            bytes = 0;
        t.paramsFromConstants += e;
        t.weightBytes += bytes;
    }
    t.params += t.paramsFromConstants;
    runFacts(g, target, options, ix, r, progress, &dirty);
    progress(1.0, "analysis done");
}

} // namespace bpu
