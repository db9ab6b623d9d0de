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

std::string CutAtEdit::describe(size_t maxListItems) const {
    // "cut_at 2 tensors (a, b)"; over the cap "cut_at 5 tensors (a, b, c, ... 2 more)". Uncut by default, so
    // two cuts never describe alike (Session keys its gain estimates by the text).
    std::string out =
        "cut_at " + std::to_string(tensors_.size()) + " tensor" + (tensors_.size() == 1 ? "" : "s");
    if (tensors_.empty())
        return out;
    out += " (";
    for (size_t i = 0; i < tensors_.size() && i < maxListItems; ++i)
        out += (i ? ", " : "") + tensors_[i];
    if (tensors_.size() > maxListItems)
        out += (maxListItems ? ", ... " : "... ") + std::to_string(tensors_.size() - maxListItems) + " more";
    return out + ")";
}

} // namespace bpu
