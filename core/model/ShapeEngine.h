// SPDX-License-Identifier: MIT
#pragma once

#include "../util/Progress.h"
#include "Graph.h"

#include <functional>
#include <string>
#include <vector>

namespace bpu {

/// Shape inference over the IR, one node at a time with the onnx schema's own inference function, fed
/// with the values of small constants (ConstantFolder) so shape arithmetic resolves. Per-node inference
/// is what lets a what-if edit re-derive only the shapes downstream of what it changed.
class ShapeEngine {
public:
    struct Report {
        /// Nodes with at least one output whose shape is not fully known, not counting nodesDataDependent.
        int nodesWithoutShapes = 0;
        /// Nodes with an open output shape downstream of a value-dependent op (NonZero, NMS, ...).
        int nodesDataDependent = 0;
        std::vector<NodeId> failed; ///< nodes whose Node::shapeError says why
        /// Of those, element-preserving nodes whose output no longer holds their input's elements
        /// (ShapeRules::elementCountMismatch: a constant Reshape target that does not fit the input).
        std::vector<NodeId> inconsistent;
        /// Nodes whose inputs break what their op requires (Node::shapeInvalid): the model is invalid.
        std::vector<NodeId> invalid;
    };

    /// Infers every node in topological order (outputs' shapes, dtypes, folded values).
    static Report inferAll(Graph& g, const Progress& progress = {});

    /// Re-infers what can change after the tensors in `changed` got new shapes/values (graph inputs,
    /// an edited node's outputs) or after the nodes in `touched` got new attributes. Returns every node
    /// that was re-inferred (their input shapes may have changed even when their outputs did not).
    /// `beforeInfer`, if set, sees each node just before its outputs are overwritten (edits snapshot them
    /// there so they can be reverted).
    static std::vector<NodeId> reinfer(Graph& g, const std::vector<TensorId>& changed,
                                       const std::vector<NodeId>& touched = {},
                                       const std::function<void(NodeId)>& beforeInfer = {});

    /// Infers one node from its inputs; returns true if any output's shape, dtype or value changed.
    static bool inferNode(Graph& g, NodeId id);

    /// Nodes with outputs that are not fully known, after inference.
    static Report summarize(const Graph& g);
};

} // namespace bpu
