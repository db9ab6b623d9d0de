// SPDX-License-Identifier: MIT
#include "GraphPatch.h"

#include "EditError.h"
#include "core/model/ShapeEngine.h"

namespace bpu {

void GraphPatch::saveTensor(const Graph& g, TensorId id) {
    const Tensor& t = g.tensor(id);
    tensors_.try_emplace(id.value, TensorState{t.dtype, t.shape, t.value});
}

void GraphPatch::saveNode(const Graph& g, NodeId id) {
    const Node& n = g.node(id);
    nodes_.try_emplace(id.value, NodeState{n.proto, n.shapeError, n.dataDependentOn});
}

std::vector<NodeId> GraphPatch::reinfer(Graph& g, const std::vector<TensorId>& changed,
                                        const std::vector<NodeId>& touched,
                                        const std::function<void(NodeId)>& adapt) {
    std::unordered_map<uint32_t, bool> hadShapes;
    // Why `id`, re-inferred, breaks the edit (empty: it does not).
    auto broken = [&](NodeId id) -> std::string {
        const Node& n = g.node(id);
        bool ok = n.shapeError.empty();
        for (TensorId o : n.outputs)
            ok = ok && (!o.valid() || g.tensor(o).shape.fullyKnown());
        if (hadShapes[id.value] && !ok)
            return n.shapeError.empty() ? "its output shape can no longer be inferred" : n.shapeError;
        return elementCountBroken(g, n);
    };
    auto fail = [&](NodeId id, const std::string& why) {
        const Node& n = g.node(id);
        return EditError("the change breaks downstream node '" + n.name + "' (" + n.opType + "): " + why,
                         n.name);
    };
    // Nodes are re-inferred in topological order, so the one before each is final when it comes: checked
    // there, a rejected edit stops at the first node it breaks instead of re-inferring (and invalidating)
    // everything downstream first, which made a sweep over a long chain O(nodes) per rejected point.
    NodeId previous;
    auto before = [&](NodeId id) {
        if (previous.valid())
            if (std::string why = broken(previous); !why.empty())
                throw fail(previous, why);
        previous = id;
        saveNode(g, id);
        bool ok = g.node(id).shapeError.empty();
        for (TensorId o : g.node(id).outputs)
            if (o.valid()) {
                saveTensor(g, o);
                ok = ok && g.tensor(o).shape.fullyKnown();
            }
        hadShapes.emplace(id.value, ok);
        if (adapt)
            adapt(id);
    };
    std::vector<NodeId> visited;
    try {
        visited = ShapeEngine::reinfer(g, changed, touched, before);
    } catch (const EditError&) {
        restore(g);
        throw;
    }
    if (previous.valid())
        if (std::string why = broken(previous); !why.empty()) {
            restore(g);
            throw fail(previous, why);
        }
    return visited;
}

const TensorShape& GraphPatch::shapeBefore(const Graph& g, TensorId id) const {
    auto it = tensors_.find(id.value);
    return it != tensors_.end() ? it->second.shape : g.tensor(id).shape;
}

std::string GraphPatch::elementCountBroken(const Graph& g, const Node& n) const {
    // onnx's Reshape inference writes a constant target shape as it is, without checking that it holds the
    // input's elements (nor does it for a batch it cannot see): a fixed [1, N] after a batch change would
    // otherwise pass as legal. Only a node that was consistent before the edit counts as broken by it.
    if (n.opType != "Reshape" && n.opType != "Flatten" && n.opType != "Squeeze" && n.opType != "Unsqueeze")
        return {};
    if (n.inputs.empty() || !n.inputs[0].valid() || n.outputs.empty() || !n.outputs[0].valid())
        return {};
    const auto inBefore = shapeBefore(g, n.inputs[0]).elements(),
               outBefore = shapeBefore(g, n.outputs[0]).elements();
    const TensorShape &in = g.tensor(n.inputs[0]).shape, &out = g.tensor(n.outputs[0]).shape;
    const auto inNow = in.elements(), outNow = out.elements();
    if (!inBefore || !outBefore || *inBefore != *outBefore || !inNow || !outNow || *inNow == *outNow)
        return {};
    return "its input " + in.toString() + " has " + std::to_string(*inNow) +
           " elements but its output shape " + out.toString() + " holds " + std::to_string(*outNow) +
           " (a constant target shape)";
}

std::vector<TensorId> GraphPatch::savedTensors() const {
    std::vector<TensorId> out;
    out.reserve(tensors_.size());
    for (const auto& [id, s] : tensors_)
        out.push_back(TensorId{id});
    return out;
}

bool GraphPatch::unchanged(const Graph& g, const std::vector<GraphPatch>& patches) {
    std::unordered_map<uint32_t, const TensorState*> tensors;
    std::unordered_map<uint32_t, const NodeState*> nodes;
    for (const auto& p : patches) {
        for (const auto& [id, s] : p.tensors_)
            tensors.try_emplace(id, &s);
        for (const auto& [id, s] : p.nodes_)
            nodes.try_emplace(id, &s);
    }
    for (const auto& [id, s] : tensors) {
        const Tensor& t = g.tensors[id];
        if (t.dtype != s->dtype || !(t.shape == s->shape) || t.value != s->value)
            return false;
    }
    for (const auto& [id, s] : nodes) {
        const Node& n = g.nodes[id];
        if (n.proto != s->proto || n.shapeError != s->shapeError || n.dataDependentOn != s->dataDependentOn)
            return false;
    }
    return true;
}

void GraphPatch::restore(Graph& g) const {
    for (const auto& [id, s] : tensors_) {
        Tensor& t = g.tensors[id];
        t.dtype = s.dtype;
        t.shape = s.shape;
        t.value = s.value;
    }
    for (const auto& [id, s] : nodes_) {
        Node& n = g.nodes[id];
        n.proto = s.proto;
        n.shapeError = s.shapeError;
        n.dataDependentOn = s.dataDependentOn;
    }
}

} // namespace bpu
