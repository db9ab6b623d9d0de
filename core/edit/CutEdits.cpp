// SPDX-License-Identifier: MIT
#include "CutEdits.h"

#include "EditContext.h"
#include "EditError.h"
#include "EditJson.h"
#include "Session.h"
#include "core/model/GraphCut.h"

#include <stdexcept>

namespace bpu {

EditPtr CutAtEdit::fromJson(const nlohmann::json& j) {
    return std::make_shared<CutAtEdit>(editjson::strings(j, "tensors"));
}

void CutAtEdit::change(EditContext& ctx) const {
    Graph cut;
    try {
        cut = GraphCut::apply(ctx.session().graph(), tensors_);
    } catch (const std::invalid_argument& e) {
        throw EditError(std::string("cut_at: ") + e.what());
    }
    ctx.replaceGraph(std::move(cut)); // a new structure: the operator table and every index are rebuilt
}

std::string CutAtEdit::describe() const {
    return "cut_at " + std::to_string(tensors_.size()) + " tensor" + (tensors_.size() == 1 ? "" : "s") +
           (tensors_.empty() ? "" : " (" + tensors_.front() + (tensors_.size() > 1 ? ", ..." : "") + ")");
}

} // namespace bpu
