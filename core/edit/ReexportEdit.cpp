// SPDX-License-Identifier: MIT
#include "ReexportEdit.h"

#include "EditError.h"
#include "EditJson.h"
#include "core/model/BakedSizes.h"
#include "core/model/Graph.h"

#include <map>

namespace bpu {

EditPtr ReexportEdit::fromJson(const nlohmann::json& j) {
    return std::make_shared<ReexportEdit>(editjson::str(j, "input"), editjson::integers(j, "shape"));
}

nlohmann::json ReexportEdit::toJson() const {
    return {{"op", "assume_reexported"}, {"input", input()}, {"shape", dims()}};
}

std::string ReexportEdit::mergeKey() const {
    return "reexport:" + input();
}

void ReexportEdit::changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                               std::vector<NodeId>& touched) const {
    const TensorId id = g.findTensor(input());
    if (!id.valid() || !g.tensor(id).isGraphInput)
        throw EditError("no model input named '" + input() + "'");
    const TensorShape before = g.tensor(id).shape;
    if (!before.fullyKnown() || before.rank() != 4 || dims().size() != 4)
        throw EditError(
            "input '" + input() +
            "' is not an image of known shape [N, C, H, W] (or NHWC): no traced size to scale from");
    const bool nhwc = before.dims[1] > 4 && before.dims[3] <= 4;
    const size_t hAxis = nhwc ? 1 : 2, wAxis = nhwc ? 2 : 3;
    const TracedInput traced{before.dims[hAxis], before.dims[wAxis]};
    // What the export fixed, read at the traced size before anything changes.
    const std::vector<BakedSize> baked = bakedSizes(g, traced);
    for (const BakedSize& b : baked)
        if (!b.rewritable)
            throw EditError("the size at " + bakedSizeText(g, b) +
                            " is computed from several constants, not held by one: a re-export cannot be "
                            "estimated by rewriting it");
    SetInputShapeEdit::changeGraph(g, patch, changed, touched);
    const int64_t h1 = dims()[hAxis], w1 = dims()[wAxis];
    // Each constant tensor once, with every element that follows the input set anew.
    std::map<uint32_t, std::shared_ptr<ConstValue>> rewritten;
    for (const BakedSize& b : baked) {
        const std::vector<int64_t> now = reexportedValue(b, h1, w1);
        for (size_t i = 0; i < now.size(); ++i) {
            if (b.follows[i].axis == SizeFollow::None)
                continue;
            const auto [tensor, index] = b.source[i];
            auto& v = rewritten[tensor.value];
            if (!v)
                v = std::make_shared<ConstValue>(*g.tensor(tensor).value);
            if (index < v->ints.size())
                v->ints[index] = now[i];
        }
    }
    for (auto& [tensor, value] : rewritten) {
        const TensorId t{tensor};
        patch.saveTensor(g, t);
        g.tensor(t).value = std::move(value);
        changed.push_back(t);
    }
}

} // namespace bpu
