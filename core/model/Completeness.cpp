// SPDX-License-Identifier: MIT
#include "Completeness.h"

#include "Graph.h"

namespace bpu {

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
    if (c.complete())
        return c;
    for (const auto& n : g.nodes) {
        if (n.dataDependentOn.valid())
            continue; // known only at run time whatever the input: not what the user can resolve
        for (TensorId o : n.outputs)
            if (o.valid() && !g.tensor(o).shape.fullyKnown()) {
                ++c.nodesWithoutShape;
                break;
            }
    }
    return c;
}

std::string Completeness::summary() const {
    if (complete())
        return {};
    std::string s;
    for (const auto& r : reasons)
        s += (s.empty() ? "" : "; ") + r;
    s += "; " + std::to_string(nodesWithoutShape) + " of " + std::to_string(nodes) +
         " nodes have no inferred shape, so their placement and cost are guesses";
    return s;
}

} // namespace bpu
