// SPDX-License-Identifier: MIT
#include "ModelComparison.h"

#include "core/analysis/AnalysisResult.h"
#include "core/edit/Session.h"
#include "core/model/Completeness.h"

#include <algorithm>
#include <limits>
#include <set>

namespace bpu {

namespace {

CompareSide sideOf(const Session& s) {
    const AnalysisSummary& sum = s.analysis().summary;
    CompareSide c;
    c.path = s.graph().path;
    c.target = s.target().displayName + " " + s.target().version;
    c.figures = latencyFigures(s.cost());
    c.nodes = int(s.graph().nodes.size());
    c.bpuNodes = sum.bpuNodes;
    c.cpuNodes = sum.cpuNodes;
    c.bpuSegments = sum.bpuSegments;
    c.findings = int(s.analysis().findings.size());
    c.paddingWasteBytes = sum.paddingWasteBytes;
    c.paddingWasteRatio = sum.paddingWasteRatio;
    c.partial = completeness(s.graph()).summary();
    return c;
}

NodeFacts factsOf(const Session& s, NodeId id) {
    const Graph& g = s.graph();
    const Node& n = g.node(id);
    const NodeAnalysis& a = s.analysis().nodes[id.value];
    NodeFacts f;
    f.name = n.name;
    f.placement = a.placement;
    f.latencyUs = s.cost().nodes[id.value].latencyUs;
    for (size_t i = 0; i < n.outputs.size(); ++i) {
        const TensorId t = n.outputs[i];
        if (!t.valid())
            continue;
        const PaddedShape& p = s.analysis().tensors[t.value].padded;
        f.paddingWasteBytes += p.wasteBytes;
        if (i == 0) {
            if (g.tensor(t).shape.rankKnown)
                f.shape = g.tensor(t).shape.dims;
            if (p.applies)
                f.paddedShape = p.dims;
        }
    }
    return f;
}

/// A finding of `from` is also in `to` when `to` has one of the same rule naming (through the matching) at
/// least one of the same nodes, or both name none.
std::vector<FindingChange> findingsOnlyIn(const Session& from, const Session& to,
                                          const std::vector<NodeId>& map) {
    std::vector<FindingChange> out;
    const auto& other = to.analysis().findings;
    for (const Finding& f : from.analysis().findings) {
        std::set<NodeId> mapped;
        for (NodeId n : f.nodes)
            if (map[n.value].valid())
                mapped.insert(map[n.value]);
        const bool found = std::any_of(other.begin(), other.end(), [&](const Finding& o) {
            if (o.rule != f.rule)
                return false;
            if (f.nodes.empty() && o.nodes.empty())
                return true;
            return std::any_of(o.nodes.begin(), o.nodes.end(), [&](NodeId n) { return mapped.count(n) > 0; });
        });
        if (found)
            continue;
        FindingChange c{ruleName(f.rule), severityName(f.severity), f.title, {}};
        for (NodeId n : f.nodes)
            c.nodes.push_back(from.graph().node(n).name);
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace

std::vector<double> Comparison::latencyDeltaByNodeOfA(size_t nodeCount) const {
    // A node of A with no counterpart in B has no delta: NaN (issue 63: drawn as unmatched, not unchanged).
    std::vector<double> d(nodeCount, std::numeric_limits<double>::quiet_NaN());
    for (const NodeDelta& n : nodes)
        if (n.a.value < nodeCount)
            d[n.a.value] = n.latencyDeltaUs();
    return d;
}

Comparison compareSessions(Session& a, Session& b) {
    a.findings();
    b.findings();
    // Issue 63: both sides' findings counted the same way - the grouped list on both when either shows it
    // (the GUI's open model), else the rules' raw list on both (6 grouped against 11 raw was a false delta).
    if (a.gainsEstimated() && !b.gainsEstimated())
        b.estimateFindingGains();
    else if (b.gainsEstimated() && !a.gainsEstimated())
        a.estimateFindingGains();
    Comparison c;
    c.a = sideOf(a);
    c.b = sideOf(b);
    const NodeMatching m = matchNodes(a.graph(), b.graph());
    for (const NodePair& p : m.pairs) {
        NodeDelta d{p.a, p.b, a.graph().node(p.a).opType, p.how, factsOf(a, p.a), factsOf(b, p.b)};
        (p.how == MatchKind::Name ? c.matchedByName : c.matchedByStructure)++;
        c.placementChanges += d.placementChanged();
        c.shapeChanges += d.shapeChanged();
        c.paddingChanges += d.paddingChanged();
        c.nodes.push_back(std::move(d));
    }
    for (NodeId id : m.unmatchedA)
        c.unmatchedA.push_back({id, a.graph().node(id).opType, factsOf(a, id)});
    for (NodeId id : m.unmatchedB)
        c.unmatchedB.push_back({id, b.graph().node(id).opType, factsOf(b, id)});
    c.findingsRemoved = findingsOnlyIn(a, b, m.toB);
    c.findingsAdded = findingsOnlyIn(b, a, m.toA);
    return c;
}

} // namespace bpu
