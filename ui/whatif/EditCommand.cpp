// SPDX-License-Identifier: MIT
#include "EditCommand.h"

#include "core/edit/Edit.h"
#include "ui/main/SessionController.h"

#include <QHash>
#include <QString>

namespace bpu::ui {

namespace {
// Stable small ids per merge key, as QUndoCommand::id() wants an int.
int idForKey(const std::string& key) {
    if (key.empty())
        return -1;
    static QHash<QString, int> ids;
    const QString k = QString::fromStdString(key);
    auto it = ids.find(k);
    if (it == ids.end())
        it = ids.insert(k, 1000 + ids.size());
    return it.value();
}
} // namespace

EditCommand::EditCommand(SessionController* controller, EditPtr edit, bool final)
    : controller_(controller)
    , mergeId_(idForKey(edit->mergeKey()))
    , final_(final) {
    setText(QString::fromStdString(edit->describe()));
    edits_.push_back(std::move(edit));
}

void EditCommand::redo() {
    // The first redo (push) applies only the newest edit; later redos replay them all.
    if (firstRedo_) {
        firstRedo_ = false;
        controller_->applyEdit(edits_.back(), final_);
        return;
    }
    for (auto& e : edits_)
        controller_->applyEdit(e, true);
}

void EditCommand::undo() {
    for (auto it = edits_.rbegin(); it != edits_.rend(); ++it)
        controller_->revertEdit(*it);
}

bool EditCommand::mergeWith(const QUndoCommand* other) {
    auto* o = dynamic_cast<const EditCommand*>(other);
    // A finished step (a released drag, a typed value) is closed: the next drag of the same dim is a new
    // step.
    if (!o || o->mergeId_ != mergeId_ || mergeId_ < 0 || final_)
        return false;
    // `other` was pushed and its edit already applied; keep it so undo reverts it too.
    edits_.insert(edits_.end(), o->edits_.begin(), o->edits_.end());
    setText(o->text());
    final_ = o->final_;
    return true;
}

} // namespace bpu::ui
