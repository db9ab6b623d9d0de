// SPDX-License-Identifier: MIT
#include "UndoToken.h"

#include "Session.h"

#include <algorithm>

namespace bpu {

std::vector<NodeId> UndoToken::restore(Session& s) {
    // Newest first; a replaced graph comes back where it was replaced, before the patches made on it.
    size_t swap = swaps_.size();
    for (size_t k = patches_.size();; --k) {
        while (swap > 0 && swaps_[swap - 1].first == k) {
            s.replaceGraph(std::move(swaps_[swap - 1].second));
            --swap;
        }
        if (k == 0)
            break;
        patches_[k - 1].restore(s.mutableGraph());
    }
    swaps_.clear();
    if (options_)
        s.mutableOptions() = std::move(*options_);
    std::vector<NodeId> dirty = std::move(dirty_);
    patches_.clear();
    options_.reset();
    dirty_.clear();
    return dirty;
}

void UndoToken::normalise() {
    std::sort(dirty_.begin(), dirty_.end());
    dirty_.erase(std::unique(dirty_.begin(), dirty_.end()), dirty_.end());
}

bool UndoToken::changesNothing(const Session& s) const {
    if (structural())
        return false;
    if (options_ && !(*options_ == s.options()))
        return false;
    return GraphPatch::unchanged(s.graph(), patches_);
}

void UndoToken::revert(Session& s) {
    if (empty())
        return;
    const bool full = structural();
    const std::vector<NodeId> dirty = restore(s);
    if (full)
        s.fullReestimate();
    else
        s.reestimate(dirty);
}

void UndoToken::absorb(UndoToken&& later) {
    for (auto& [at, g] : later.swaps_)
        swaps_.emplace_back(at + patches_.size(), std::move(g));
    for (auto& p : later.patches_)
        patches_.push_back(std::move(p));
    if (!options_)
        options_ = std::move(later.options_);
    dirty_.insert(dirty_.end(), later.dirty_.begin(), later.dirty_.end());
    normalise();
    later = UndoToken();
}

} // namespace bpu
