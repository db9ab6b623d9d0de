// SPDX-License-Identifier: MIT
// Rewriting a graph (issue 47): some nodes go, new ones take their place, and readers of a removed tensor
// can be pointed at another. The base of the edits that change a model's structure the way its owner would
// (swap an activation, take out a transform pair); like a cut, the result is a new graph, rebuilt and
// linked, that a session re-analyses from scratch.
#pragma once

#include "ConstValue.h"
#include "Graph.h"

#include <string>
#include <utility>
#include <vector>

namespace bpu {

struct GraphRewrite {
    /// A node to add, its tensors by name. Its outputs must be tensors a removed node produced: they keep
    /// their shapes and types (an elementwise swap keeps them), so nothing downstream is re-derived.
    struct NewNode {
        std::string opType;
        std::string name; ///< made unique if the graph has it already
        std::vector<std::string> inputs, outputs;
    };
    /// A constant the new nodes read (Clip's min and max), added as an initializer unless one by that name
    /// with the same value exists.
    struct NewConstant {
        std::string name;
        ConstValue value;
    };

    std::vector<NodeId> remove;
    std::vector<NewNode> add;
    std::vector<NewConstant> constants;
    /// Kept nodes and model outputs reading the first tensor read the second instead (a pair taken out:
    /// its output's readers read its input).
    std::vector<std::pair<std::string, std::string>> rewire;

    /// The graph after the rewrite: kept nodes in their old order with the new ones where the first removed
    /// node was, the tensors still used, relinked. Throws std::invalid_argument naming the problem: an
    /// invalid node to remove, a tensor that is not there, a new node's output no removed node produced,
    /// a kept reader or model output left without its tensor, or a cycle.
    Graph apply(const Graph& g) const;
};

} // namespace bpu
