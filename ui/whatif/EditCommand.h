// SPDX-License-Identifier: MIT
#pragma once

#include "core/edit/EditFwd.h"

#include <QUndoCommand>
#include <memory>
#include <vector>

namespace bpu {
class Edit;
}

namespace bpu::ui {

class SessionController;

/// A core what-if edit on the undo stack. Consecutive edits with the same merge key (one drag of one dim)
/// merge into one step: undo reverts them all, newest first.
class EditCommand : public QUndoCommand {
public:
    EditCommand(SessionController* controller, EditPtr edit, bool final = true);

    void redo() override;
    void undo() override;
    int id() const override { return mergeId_; }
    bool mergeWith(const QUndoCommand* other) override;

private:
    SessionController* controller_;
    std::vector<EditPtr> edits_;
    int mergeId_ = -1;
    bool final_ = true;
    bool firstRedo_ = true;
};

} // namespace bpu::ui
