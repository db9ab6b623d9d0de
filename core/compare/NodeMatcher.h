// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

#include <vector>

namespace bpu {

/// How a pair of nodes from two exports of one network was found.
enum class MatchKind {
    Name,      ///< same name and op, and their inputs come from same-named nodes (or the same model input)
    Structure, ///< same op reached through already matched neighbours (or a unique local signature)
};
const char* matchKindName(MatchKind k); ///< "name", "structure"

struct NodePair {
    NodeId a, b;
    MatchKind how = MatchKind::Structure;
};

/// Which node of graph A is which node of graph B.
struct NodeMatching {
    std::vector<NodePair> pairs;                // in A's topological order
    std::vector<NodeId> unmatchedA, unmatchedB; // in each graph's topological order
    std::vector<NodeId> toB;                    // by A's NodeId: its B node, invalid if unmatched
    std::vector<NodeId> toA;                    // by B's NodeId
};

/// Matches the nodes of two exports of the same network:
///   1. by name: same name and op type, and every data input read from a same-named node of the same op (or
///      the same model input), so generic names renumbered by a re-export ("Conv_12") never pair wrong nodes;
///   2. by structure, from the model inputs and outputs (by position) and the name pairs outwards: the
///      unmatched consumers of a matched tensor that read it at the same input slot with the same op type
///      are paired, and so are the producers of a matched tensor; where several candidates compete, the
///      one with the same name, weight dims and attributes, output shape and matched other inputs wins,
///      then the one at the same relative position;
///   3. what is left: nodes whose local signature (op, weight dims, attributes, output shape) occurs exactly
///      once among the unmatched nodes of each graph.
/// Shapes only rank candidates, so two exports at different input sizes still match node for node.
NodeMatching matchNodes(const Graph& a, const Graph& b);

} // namespace bpu
