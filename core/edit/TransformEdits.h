// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"

#include <string>
#include <vector>

namespace bpu {

/// The transform after `first` undoes it (issue 47): a Transpose followed by the Transpose of the inverse
/// permutation, or a reshape (Reshape, Flatten, Squeeze, Unsqueeze) followed by one back to its input
/// shape, the second the first's only reader and the first's output no model output. Shapes must be known.
bool transformPairCancels(const Graph& g, NodeId first);

/// remove_transform_pair (issue 47): each named node and the transform after it that undoes it
/// (transformPairCancels) are taken out; the pair's readers read its input. The model computes the same:
/// no retraining, no change of its outputs; the graph is rewritten (GraphRewrite) and re-analysed.
class RemoveTransformPairEdit : public Edit {
public:
    explicit RemoveTransformPairEdit(std::vector<std::string> nodes)
        : nodes_(std::move(nodes)) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override { return {{"op", "remove_transform_pair"}, {"nodes", nodes_}}; }

protected:
    void change(EditContext& ctx) const override;

private:
    std::vector<std::string> nodes_;
};

} // namespace bpu
