// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace bpu {

class Graph;
struct Node;

/// Whether a result rests on a model whose every shape is known. An input dim left unresolved (a symbolic
/// H/W from a dynamic-axes export, a paddle2onnx DynamicDimension) leaves the nodes behind it without shapes;
/// so does a node whose inference stops with every input known (a size the export baked in that no longer
/// fits the input, issue 61). Their placement and cost are guesses, and the totals with them. Nothing is
/// withheld, but every front end says PARTIAL first. Read from the graph as it stands, so a what-if edit that
/// gives the input a shape makes the result complete. Nodes whose output size is known only at run time
/// (NonZero, NMS and what follows them) do not count: no input shape resolves them.
struct Completeness {
    /// One per input left unresolved ("input 'x' has unresolved dims 2 ('h'), 3 ('w')"), then one naming
    /// where inference stops with every input known ("shape inference stops at 'cat' (Concat)").
    std::vector<std::string> reasons;
    std::vector<std::string> inputs; ///< the names of the unresolved inputs, in model order
    /// Nodes whose every input has a known shape but whose output has none: where inference stopped.
    std::vector<std::string> stoppedAt;
    /// The nodes behind the first of those that apply a size the export fixed in a constant (BakedSizes.h).
    std::vector<std::string> bakedAt;
    int nodesWithoutShape = 0; ///< nodes with an output of unknown shape (not data-dependent ones)
    /// The first few of those nodes' names, in graph order (at most kNamed).
    std::vector<std::string> withoutShape;
    int nodes = 0;
    static constexpr size_t kNamed = 3;

    bool complete() const { return reasons.empty() && nodesWithoutShape == 0; }
    /// Every model input has a shape (the import's unresolved-input warnings no longer hold).
    bool inputsResolved() const { return inputs.empty(); }
    /// The reasons and what they cost, as one sentence: "input 'x' has unresolved dims 2 ('h'), 3 ('w');
    /// 275 of 315 nodes have no inferred shape ('conv', 'relu', 'add', ...), so their placement and cost are
    /// guesses". Empty if complete.
    std::string summary() const;
};

Completeness completeness(const Graph& g);

/// Whether `n`'s figures are guesses: an output of unknown shape, and not for a size known only at run time
/// (Node::dataDependentOn). The one rule completeness() counts and the advisor keeps findings off.
bool shapeGuessed(const Graph& g, const Node& n);

} // namespace bpu
