// SPDX-License-Identifier: MIT
#pragma once

#include "EditFwd.h"
#include "GraphPatch.h"
#include "core/analysis/AnalysisOptions.h"

#include <optional>
#include <vector>

namespace bpu {

class Session;

/// What one apply (an edit, or an edit list) changed, to revert it exactly: the graph patches, the options
/// as they were, the nodes whose metrics changed. Tokens of one session revert newest first (an undo stack);
/// a token reverts once. Move-only: it owns the saved state.
class UndoToken {
public:
    UndoToken() = default;
    UndoToken(UndoToken&&) noexcept = default;
    UndoToken& operator=(UndoToken&&) noexcept = default;
    UndoToken(const UndoToken&) = delete;
    UndoToken& operator=(const UndoToken&) = delete;

    /// Restores the session to its state before the apply and re-estimates it once.
    void revert(Session& s);
    /// Takes over `later` (applied after this token's changes), so both revert as one, with one re-estimate
    /// (the steps of a drag).
    void absorb(UndoToken&& later);
    /// The apply left the session as it found it (a "fuse all" on a fused model, a value set to itself):
    /// reverting would change nothing.
    bool changesNothing(const Session& s) const;
    /// Nothing to revert (a default token, or one already reverted).
    bool empty() const { return patches_.empty() && !options_ && dirty_.empty() && swaps_.empty(); }
    /// An edit replaced the graph (changed its nodes or tensors, not only their shapes): reverting it
    /// re-estimates from scratch.
    bool structural() const { return !swaps_.empty(); }

private:
    friend class EditContext;
    friend UndoToken applyEditList(Session&, const EditList&);
    /// Sorts dirty_ and drops duplicates.
    void normalise();
    /// Undoes the changes without re-estimating; returns the nodes to re-measure.
    std::vector<NodeId> restore(Session& s);

    std::vector<GraphPatch> patches_; ///< in the order applied
    /// Graphs replaced by a structural edit: (patches_ applied before it, the graph it replaced).
    std::vector<std::pair<size_t, std::shared_ptr<Graph>>> swaps_;
    std::optional<AnalysisOptions> options_; ///< the options before the first option change
    std::vector<NodeId> dirty_;              ///< nodes whose shapes or weights changed, sorted, unique
};

} // namespace bpu
