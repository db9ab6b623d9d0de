// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"

#include <string>
#include <vector>

namespace bpu {

/// cut_at: the named tensors become the model's outputs and everything only they fed is dropped
/// (core/model/GraphCut.h) - a detector cut at its heads, with decoding and NMS moved to post-processing.
/// Changes the graph's structure (EditContext::replaceGraph), so the session re-analyses from scratch; the
/// undo token keeps the graph as it was (node and tensor ids included).
class CutAtEdit : public Edit {
public:
    explicit CutAtEdit(std::vector<std::string> tensors)
        : tensors_(std::move(tensors)) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override { return {{"op", "cut_at"}, {"tensors", tensors_}}; }
    std::string describe(size_t maxListItems = SIZE_MAX) const override;
    EditCosts costs() const override { return {EditCost::ChangesOutputs}; }

protected:
    void change(EditContext& ctx) const override;

private:
    std::vector<std::string> tensors_;
};

} // namespace bpu
