// SPDX-License-Identifier: MIT
#include "Completeness.h"

#include "BakedSizes.h"
#include "Graph.h"

namespace bpu {

namespace {

std::string quotedList(const std::vector<std::string>& names, size_t total) {
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "'" : ", '") + n + "'";
    if (total > names.size())
        s += ", ...";
    return s;
}

} // namespace

bool shapeGuessed(const Graph& g, const Node& n) {
    if (n.dataDependentOn.valid())
        return false; // known only at run time whatever the input: not what the user can resolve
    for (TensorId o : n.outputs)
        if (o.valid() && !g.tensor(o).shape.fullyKnown())
            return true;
    return false;
}

Completeness completeness(const Graph& g) {
    Completeness c;
    c.nodes = static_cast<int>(g.nodes.size());
    for (TensorId id : g.inputs) {
        const Tensor& t = g.tensor(id);
        if (!t.shape.rankKnown) {
            c.reasons.push_back("input '" + t.name + "' has no shape");
            c.inputs.push_back(t.name);
            continue;
        }
        std::string dims;
        int unresolved = 0;
        for (size_t i = 0; i < t.shape.rank(); ++i)
            if (t.shape.dims[i] < 0) {
                dims += (unresolved++ ? ", " : "") + std::to_string(i);
                if (!t.shape.symbol(i).empty())
                    dims += " ('" + t.shape.symbol(i) + "')";
            }
        if (unresolved == 0)
            continue;
        c.reasons.push_back("input '" + t.name + "' has unresolved dim" + (unresolved > 1 ? "s " : " ") +
                            dims);
        c.inputs.push_back(t.name);
    }
    std::vector<std::string> stoppedOps;
    NodeId firstStop;
    size_t stopped = 0;
    for (const auto& n : g.nodes) {
        if (!shapeGuessed(g, n))
            continue;
        if (c.withoutShape.size() < Completeness::kNamed)
            c.withoutShape.push_back(n.name);
        ++c.nodesWithoutShape;
        bool inputsKnown = true;
        for (TensorId i : n.inputs)
            inputsKnown = inputsKnown && (!i.valid() || g.tensor(i).shape.fullyKnown());
        // Behind an unknown shape is not where inference stopped; with an input unresolved, a node whose
        // inputs' shapes are known may still lack one for an unknown value (Reshape of Shape(x)): the
        // input is the reason then.
        if (!inputsKnown || !c.inputs.empty())
            continue;
        if (!firstStop.valid())
            firstStop = n.id;
        if (++stopped <= Completeness::kNamed) {
            c.stoppedAt.push_back(n.name);
            stoppedOps.push_back(n.opType);
        }
    }
    if (stopped > 0) {
        std::string at;
        for (size_t i = 0; i < c.stoppedAt.size(); ++i)
            at += (i ? ", '" : "'") + c.stoppedAt[i] + "' (" + stoppedOps[i] + ")";
        if (stopped > c.stoppedAt.size())
            at += " and " + std::to_string(stopped - c.stoppedAt.size()) + " more";
        // The usual cause: a size the export traced into a constant, which the new input no longer fits.
        std::string baked;
        for (const BakedSize& b : bakedSizesBehind(g, firstStop, std::nullopt, 2)) {
            c.bakedAt.push_back(g.node(b.node).name);
            baked += (baked.empty() ? "" : ", ") + bakedSizeText(g, b);
        }
        if (!baked.empty())
            at += ": the export fixed the size at " + baked +
                  "; export with a dynamic size, or at this input size";
        c.reasons.push_back("shape inference stops at " + at);
    }
    return c;
}

std::string Completeness::summary() const {
    if (complete())
        return {};
    std::string s;
    for (const auto& r : reasons)
        s += (s.empty() ? "" : "; ") + r;
    const bool one = nodesWithoutShape == 1;
    s += (s.empty() ? "" : "; ") + std::to_string(nodesWithoutShape) + " of " + std::to_string(nodes) +
         (one ? " nodes has" : " nodes have") + " no inferred shape (" +
         quotedList(withoutShape, size_t(nodesWithoutShape)) + "), so " + (one ? "its" : "their") +
         " placement and cost are guesses";
    return s;
}

} // namespace bpu
