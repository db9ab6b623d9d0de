// SPDX-License-Identifier: MIT
#include "EditHistory.h"

#include "Session.h"

#include <cstdint>

namespace bpu {

void EditHistory::push(Step step, UndoToken token) {
    // A new step drops what could be redone; a saved state among the dropped steps is gone for good.
    if (clean_ > position_)
        clean_ = SIZE_MAX;
    steps_.resize(position_);
    tokens_.resize(position_);
    steps_.push_back(std::move(step));
    tokens_.push_back(std::move(token));
    ++position_;
}

bool EditHistory::apply(Session& s, EditList edits, std::string label) {
    UndoToken token = applyEditList(s, edits);
    closeDrag();
    if (token.changesNothing(s))
        return false; // the state is the same: nothing to undo, no step
    push({std::move(label), std::move(edits), {}, false}, std::move(token));
    return true;
}

std::vector<EditListError> EditHistory::applyWhatFits(Session& s, const EditList& edits, std::string label) {
    std::vector<EditListError> rejected;
    EditList applied;
    UndoToken token;
    // The whole rest of the list at once (one re-estimate); at a failure, the part before it (which applied a
    // moment ago, so applies again), then on past the edit that failed.
    size_t from = 0;
    while (from < edits.size()) {
        EditList rest(edits.begin() + long(from), edits.end());
        try {
            token.absorb(applyEditList(s, rest));
            applied.insert(applied.end(), rest.begin(), rest.end());
            break;
        } catch (const EditListError& e) {
            rejected.emplace_back(from + e.index(), e.edit(), e.reason());
            EditList before(rest.begin(), rest.begin() + long(e.index()));
            if (!before.empty()) {
                token.absorb(applyEditList(s, before));
                applied.insert(applied.end(), before.begin(), before.end());
            }
            from += e.index() + 1;
        }
    }
    closeDrag();
    if (!applied.empty() && !token.changesNothing(s))
        push({std::move(label), std::move(applied), {}, false}, std::move(token));
    return rejected;
}

bool EditHistory::applyDragStep(Session& s, EditPtr edit, bool final) {
    const std::string key = edit->mergeKey();
    const bool merging = !key.empty() && position_ == steps_.size() && position_ > 0 && steps_.back().open &&
                         steps_.back().mergeKey == key;
    UndoToken token = applyEditList(s, {edit});
    if (token.changesNothing(s)) {
        if (merging && final)
            steps_.back().open = false;
        return false;
    }
    if (merging) {
        Step& top = steps_.back();
        tokens_.back().absorb(std::move(token));
        top.edits = {edit};
        top.label = edit->describe(3);
        top.open = !final;
        if (final && tokens_.back().changesNothing(s)) {
            // The drag ended where it started: no step.
            steps_.pop_back();
            tokens_.pop_back();
            --position_;
            return true;
        }
        if (clean_ == position_)
            clean_ = SIZE_MAX; // the saved step changed under the same index
        return true;
    }
    closeDrag();
    push({edit->describe(3), {edit}, key, !final && !key.empty()}, std::move(token));
    return true;
}

void EditHistory::closeDrag() {
    if (!steps_.empty())
        steps_.back().open = false;
}

void EditHistory::undo(Session& s) {
    if (!canUndo())
        return;
    closeDrag();
    --position_;
    tokens_[position_].revert(s);
    tokens_.resize(position_);
}

void EditHistory::redo(Session& s) {
    if (!canRedo())
        return;
    // The step applied to this very state before, so it applies again (edits are immutable values).
    tokens_.push_back(applyEditList(s, steps_[position_].edits));
    ++position_;
}

void EditHistory::goTo(Session& s, size_t position) {
    while (position_ > position && canUndo())
        undo(s);
    while (position_ < position && canRedo())
        redo(s);
}

EditList EditHistory::appliedEdits() const {
    EditList out;
    for (size_t i = 0; i < position_; ++i)
        out.insert(out.end(), steps_[i].edits.begin(), steps_[i].edits.end());
    return out;
}

void EditHistory::clear() {
    steps_.clear();
    tokens_.clear();
    position_ = 0;
    clean_ = 0;
}

} // namespace bpu
