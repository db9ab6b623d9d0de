// SPDX-License-Identifier: MIT
#pragma once

#include "EditList.h"

#include <cstddef>
#include <string>
#include <vector>

namespace bpu {

class Session;

/// The undo history of one session: the steps applied (each an edit list with what reverts it) and the
/// steps undone that redo can apply again. A step is one user action: an edit, a finding's fix, an edit
/// file, or the whole of one drag. A rejected edit never becomes a step. Every call applies to `s`
/// immediately; the history must be used with the same session throughout.
class EditHistory {
public:
    struct Step {
        std::string label;    ///< for the history list ("set_channels node=conv1 channels=48", "Fix: ...")
        EditList edits;       ///< what redo applies (a drag: its last value)
        std::string mergeKey; ///< a drag's control; its next steps merge while the step is open
        bool open = false;    ///< a drag still held: the next step of the same control merges into it
    };

    /// Applies `edits` as a new step, dropping the steps undone before it. Throws EditListError naming the
    /// edit that does not apply; then the session and the history are as they were. Returns false, recording
    /// nothing, when the edits change nothing (a "fuse all" on a model already fused).
    bool apply(Session& s, EditList edits, std::string label);
    /// Applies the edits of `edits` that fit, in order, as one step, and returns the ones that do not (their
    /// index in `edits`, description and reason), each tried against the edits applied before it: a project
    /// or a reload on a model that changed since. The step holds only the edits that applied.
    std::vector<EditListError> applyWhatFits(Session& s, const EditList& edits, std::string label);
    /// One step of a drag of a control (`edit->mergeKey()`): while the top step is the same control's and
    /// still open, `edit` applies on top and the step becomes `edit` (one undo step for the whole drag);
    /// `final` closes it (the button was released). Throws EditListError for a value that does not apply:
    /// only that value is dropped, the drag's step stays as it was.
    /// Returns false when the value changes nothing (the control's current value).
    bool applyDragStep(Session& s, EditPtr edit, bool final);
    /// Closes an open drag step (the drag ended without a last value).
    void closeDrag();

    bool canUndo() const { return position_ > 0; }
    bool canRedo() const { return position_ < steps_.size(); }
    /// Reverts the newest applied step (one re-estimate).
    void undo(Session& s);
    /// Applies the oldest undone step again.
    void redo(Session& s);
    /// Undoes or redoes until `position` steps are applied.
    void goTo(Session& s, size_t position);

    /// Steps applied (the rest, up to size(), can be redone).
    size_t position() const { return position_; }
    size_t size() const { return steps_.size(); }
    const Step& step(size_t i) const { return steps_[i]; }
    /// The applied steps' edits in order, each drag as its last value: applied to the session as it was
    /// before the first step, they give the current state (project files, reports).
    EditList appliedEdits() const;

    /// The current position is what was saved (a project): isClean() until the next change.
    void markClean() { clean_ = position_; }
    bool isClean() const { return clean_ == position_; }
    /// Forgets every step (a new model); does not touch a session.
    void clear();

private:
    void push(Step step, UndoToken token);

    std::vector<Step> steps_;
    std::vector<UndoToken> tokens_; ///< one per applied step (index < position_)
    size_t position_ = 0;
    size_t clean_ = 0; ///< SIZE_MAX: the saved state is no longer in the history
};

} // namespace bpu
