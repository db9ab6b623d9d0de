// SPDX-License-Identifier: MIT
#include "TransformEdits.h"

#include "EditContext.h"
#include "EditError.h"
#include "EditJson.h"
#include "Session.h"
#include "core/model/GraphRewrite.h"

#include <set>
#include <stdexcept>

namespace bpu {

namespace {

bool isReshapeLike(const std::string& op) {
    return op == "Reshape" || op == "Flatten" || op == "Squeeze" || op == "Unsqueeze";
}

/// The node after `first` when it is `first`'s only reader.
NodeId onlyReader(const Graph& g, const Node& first) {
    if (first.outputs.size() != 1 || !first.outputs[0].valid())
        return {};
    const Tensor& t = g.tensor(first.outputs[0]);
    if (t.isGraphOutput || t.consumers.size() != 1)
        return {};
    return t.consumers[0];
}

} // namespace

bool transformPairCancels(const Graph& g, NodeId firstId) {
    if (!firstId.valid())
        return false;
    const Node& a = g.node(firstId);
    const NodeId bId = onlyReader(g, a);
    if (!bId.valid() || a.inputs.empty() || !a.inputs[0].valid())
        return false;
    const Node& b = g.node(bId);
    if (b.outputs.size() != 1 || !b.outputs[0].valid() || b.inputs.empty() || b.inputs[0] != a.outputs[0])
        return false;
    const TensorShape& in = g.tensor(a.inputs[0]).shape;
    const TensorShape& out = g.tensor(b.outputs[0]).shape;
    if (!in.fullyKnown() || !out.fullyKnown() || in.dims != out.dims)
        return false;
    if (a.opType == "Transpose" && b.opType == "Transpose") {
        const auto pa = a.attrInts("perm"), pb = b.attrInts("perm");
        if (!pa || !pb || pa->size() != pb->size() || pa->size() != in.rank())
            return false;
        // out[i] = mid[pb[i]] = in[pa[pb[i]]]: the identity when pa[pb[i]] == i for every axis.
        for (size_t i = 0; i < pb->size(); ++i) {
            const int64_t j = (*pb)[i];
            if (j < 0 || size_t(j) >= pa->size() || (*pa)[size_t(j)] != int64_t(i))
                return false;
        }
        return true;
    }
    // A reshape and one back: the same elements in the same order, so the same tensor.
    return isReshapeLike(a.opType) && isReshapeLike(b.opType);
}

EditPtr RemoveTransformPairEdit::fromJson(const nlohmann::json& j) {
    std::vector<std::string> nodes = editjson::strings(j, "nodes");
    if (nodes.empty())
        throw EditError("remove_transform_pair: 'nodes' names no node");
    return std::make_shared<RemoveTransformPairEdit>(std::move(nodes));
}

void RemoveTransformPairEdit::change(EditContext& ctx) const {
    const Graph& g = ctx.session().graph();
    GraphRewrite rw;
    std::set<uint32_t> taken;
    for (const auto& name : nodes_) {
        const NodeId a = g.findNode(name);
        if (!a.valid())
            throw EditError("no node named '" + name + "'");
        if (!transformPairCancels(g, a))
            throw EditError("'" + name + "' (" + g.node(a).opType +
                            ") is not followed by a transform that undoes it (its only reader, back to its "
                            "input shape; for a Transpose, the inverse permutation)");
        const NodeId b = g.tensor(g.node(a).outputs[0]).consumers[0];
        if (!taken.insert(a.value).second || !taken.insert(b.value).second)
            throw EditError("'" + name + "' is in two of the pairs named");
        rw.remove.push_back(a);
        rw.remove.push_back(b);
        rw.rewire.emplace_back(g.tensor(g.node(b).outputs[0]).name, g.tensor(g.node(a).inputs[0]).name);
    }
    Graph out;
    try {
        out = rw.apply(g);
    } catch (const std::invalid_argument& e) {
        throw EditError(std::string("remove_transform_pair: ") + e.what());
    }
    ctx.replaceGraph(std::move(out));
}

} // namespace bpu
