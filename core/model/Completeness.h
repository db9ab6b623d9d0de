// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace bpu {

class Graph;

/// Whether a result rests on a model whose every input dim is known. An input dim left unresolved (a
/// symbolic H/W from a dynamic-axes export, a paddle2onnx DynamicDimension) leaves the nodes behind it
/// without shapes: their placement and cost are guesses, and the totals with them. Nothing is withheld, but
/// every front end says PARTIAL first. Read from the graph as it stands, so a what-if edit that gives the
/// input a shape makes the result complete.
struct Completeness {
    /// One per input left unresolved: "input 'x' has unresolved dims 2 ('h'), 3 ('w')".
    std::vector<std::string> reasons;
    std::vector<std::string> inputs; ///< the names of those inputs, in model order
    int nodesWithoutShape = 0;       ///< nodes with an output of unknown shape (not data-dependent ones)
    int nodes = 0;

    bool complete() const { return reasons.empty(); }
    /// The reasons and what they cost, as one sentence: "input 'x' has unresolved dims 2 ('h'), 3 ('w');
    /// 275 of 315 nodes have no inferred shape, so their placement and cost are guesses". Empty if complete.
    std::string summary() const;
};

Completeness completeness(const Graph& g);

} // namespace bpu
