// SPDX-License-Identifier: MIT
#include "UndoToken.h"

#include "Session.h"

#include <algorithm>

namespace bpu {

std::vector<NodeId> UndoToken::restore(Session& s) {
    if (!patches_.empty()) {
        Graph& g = s.mutableGraph();
        for (auto it = patches_.rbegin(); it != patches_.rend(); ++it)
            it->restore(g);
    }
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

void UndoToken::revert(Session& s) {
    if (empty())
        return;
    s.reestimate(restore(s));
}

void UndoToken::absorb(UndoToken&& later) {
    for (auto& p : later.patches_)
        patches_.push_back(std::move(p));
    if (!options_)
        options_ = std::move(later.options_);
    dirty_.insert(dirty_.end(), later.dirty_.begin(), later.dirty_.end());
    normalise();
    later = UndoToken();
}

} // namespace bpu
