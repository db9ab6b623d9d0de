// SPDX-License-Identifier: MIT
#include "CutEdits.h"

#include "EditError.h"
#include "Session.h"
#include "core/model/GraphCut.h"

#include <stdexcept>

namespace bpu {

void CutAtEdit::apply(Session& s) {
    Graph cut;
    try {
        cut = GraphCut::apply(s.graph(), tensors_);
    } catch (const std::invalid_argument& e) {
        throw EditError(std::string("cut_at: ") + e.what());
    }
    before_ = s.sharedGraph();
    s.mutableGraph() = std::move(cut);
    s.fullReestimate(); // a new structure: the operator table and every index are rebuilt
}

void CutAtEdit::revert(Session& s) {
    if (!before_)
        return;
    s.mutableGraph() = *before_;
    before_.reset();
    s.fullReestimate();
}

std::string CutAtEdit::describe() const {
    return "cut_at " + std::to_string(tensors_.size()) + " tensor" + (tensors_.size() == 1 ? "" : "s") +
           (tensors_.empty() ? "" : " (" + tensors_.front() + (tensors_.size() > 1 ? ", ..." : "") + ")");
}

} // namespace bpu
