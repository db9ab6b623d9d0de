// SPDX-License-Identifier: MIT
#pragma once

#include "UndoToken.h"

namespace bpu {

class Graph;
class Session;
struct AnalysisOptions;

/// What an edit's change() works through while an edit list applies: the session's graph and options, and
/// the undo record. Graph changes go through a GraphPatch the edit hands over with the nodes to re-measure;
/// the options are saved once, on the first change of the list, however many edits change them.
class EditContext {
public:
    explicit EditContext(Session& s)
        : s_(s) {}

    const Graph& graph() const;
    /// The graph to change (copied first when still shared: copy-on-write).
    Graph& mutableGraph();
    const AnalysisOptions& options() const;
    /// The options to change in place; their state before the list is kept for revert.
    AnalysisOptions& mutableOptions();
    /// A graph change that applied: its patch (to revert) and the nodes whose metrics it changed.
    void recordPatch(GraphPatch patch, const std::vector<NodeId>& dirty);
    /// A structural edit (one that adds or drops nodes or tensors, which a GraphPatch cannot record) hands
    /// over the whole new graph; the old one is kept to revert (shared, not copied), and the session is
    /// re-estimated from scratch.
    void replaceGraph(Graph g);

    /// The record so far; the caller (applyEditList) re-estimates, or restores on failure.
    UndoToken& token() { return token_; }
    Session& session() { return s_; }

private:
    Session& s_;
    UndoToken token_;
};

} // namespace bpu
