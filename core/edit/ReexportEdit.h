// SPDX-License-Identifier: MIT
#pragma once

#include "ShapeEdits.h"

namespace bpu {

/// `assume_reexported {input, shape}` (issue 61): the model as its exporter would have written it at another
/// input size. The input gets `shape`, and every size the export fixed in a constant that follows the
/// input (BakedSizes.h: a Resize's H/W traced at 520 as ceil(520 / 16) = 33, a Reshape to a flattened map)
/// is set to what it would be at the new size. Idealized: a re-export is the owner's to make, not a change
/// of this file, so it estimates what a re-export would give and is never exported or a fix. H and W are
/// dims 2 and 3 (1 and 2 when dim 3, not dim 1, holds at most 4 channels: NHWC); the traced size the
/// constants are matched against is the input's shape before the edit.
class ReexportEdit : public SetInputShapeEdit {
public:
    using SetInputShapeEdit::SetInputShapeEdit;
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override;
    std::string mergeKey() const override;
    bool idealized() const override { return true; }
    EditCosts costs() const override { return {}; }

protected:
    void changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                     std::vector<NodeId>& touched) const override;
};

} // namespace bpu
