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
    nodes_.try_emplace(id.value, NodeState{n.proto, n.shapeError});
}

std::vector<NodeId> GraphPatch::reinfer(Graph& g, const std::vector<TensorId>& changed,
                                        const std::vector<NodeId>& touched, const std::function<void(NodeId)>& adapt) {
    std::unordered_map<uint32_t, bool> hadShapes;
    auto before = [&](NodeId id) {
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
    for (NodeId id : visited) {
        const Node& n = g.node(id);
        bool ok = n.shapeError.empty();
        for (TensorId o : n.outputs)
            ok = ok && (!o.valid() || g.tensor(o).shape.fullyKnown());
        if (hadShapes[id.value] && !ok) {
            std::string why = n.shapeError.empty() ? "its output shape can no longer be inferred" : n.shapeError;
            restore(g);
            throw EditError("the change breaks downstream node '" + n.name + "' (" + n.opType + "): " + why);
        }
    }
    return visited;
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
    }
}

} // namespace bpu
