// SPDX-License-Identifier: MIT
#include "EditBatch.h"

#include "EditError.h"
#include "OptionEdits.h"
#include "Session.h"

namespace bpu {

EditBatch::EditBatch(std::vector<std::shared_ptr<Edit>> edits, std::string title)
    : edits_(std::move(edits))
    , title_(std::move(title)) {}

void EditBatch::apply(Session& s) {
    saved_ = s.options();
    bool stale = false; // option changes not yet re-estimated
    for (size_t i = 0; i < edits_.size(); ++i) {
        try {
            if (const auto* o = dynamic_cast<const OptionEdit*>(edits_[i].get())) {
                // No copy of the options per edit: the batch saved them once, and reverts them at once.
                o->applyToScratch(s);
                stale = true;
            } else {
                edits_[i]->apply(s); // re-estimates, with every option change so far
                stale = false;
            }
        } catch (const EditError& e) {
            // applyToScratch may have half-changed the options: the roll-back restores them whole.
            rollBack(s, i);
            throw EditError("edit " + std::to_string(i + 1) + " (" + edits_[i]->describe() +
                            "): " + e.what());
        }
    }
    if (stale)
        s.reestimate({});
}

void EditBatch::rollBack(Session& s, size_t count) {
    for (size_t i = count; i-- > 0;)
        if (!dynamic_cast<const OptionEdit*>(edits_[i].get()))
            edits_[i]->revert(s);
    s.mutableOptions() = saved_;
    s.reestimate({});
}

void EditBatch::revert(Session& s) {
    rollBack(s, edits_.size());
}

nlohmann::json EditBatch::toJson() const {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& e : edits_)
        list.push_back(e->toJson());
    return {{"edits", std::move(list)}};
}

std::string EditBatch::describe() const {
    return title_ + " (" + std::to_string(edits_.size()) + (edits_.size() == 1 ? " edit)" : " edits)");
}

} // namespace bpu
