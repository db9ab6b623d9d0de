// SPDX-License-Identifier: MIT
#include "StoredWeight.h"

#include "EditError.h"
#include "GraphPatch.h"

#include <algorithm>

namespace bpu {

namespace {

/// The tensor `t` and, behind Identity nodes, the initializer it passes on (torch shares equal parameters
/// that way); empty when it is neither.
std::vector<TensorId> throughIdentities(const Graph& g, TensorId t) {
    std::vector<TensorId> out;
    for (int hop = 0; hop < 4 && t.valid(); ++hop) {
        out.push_back(t);
        const Tensor& x = g.tensor(t);
        if (x.isInitializer)
            return out;
        if (!x.producer.valid())
            break;
        const Node& p = g.node(x.producer);
        if (p.opType != "Identity" || p.inputs.empty())
            break;
        t = p.inputs[0];
    }
    return {};
}

bool isChainOp(const std::string& op) {
    return op == "QuantizeLinear" || op == "DequantizeLinear" || op == "Identity";
}

} // namespace

void resizeTensorDim(Graph& g, GraphPatch& patch, TensorId t, size_t axis, int64_t value) {
    Tensor& x = g.tensor(t);
    if (axis >= x.shape.rank() || x.shape.dims[axis] == value)
        return;
    patch.saveTensor(g, t);
    x.shape.dims[axis] = value;
    x.value = nullptr; // the values no longer describe it; only dims matter to the profiler
}

std::optional<StoredWeight> storedWeight(const Graph& g, TensorId t) {
    StoredWeight w;
    // A fake-quant pair and the Identity nodes around it: a handful of hops at most.
    for (int hop = 0; hop < 6 && t.valid(); ++hop) {
        const Tensor& x = g.tensor(t);
        if (x.isInitializer) {
            w.stored = t;
            return w;
        }
        if (!x.producer.valid())
            return std::nullopt;
        const Node& p = g.node(x.producer);
        if (!isChainOp(p.opType) || p.inputs.empty() || !p.inputs[0].valid())
            return std::nullopt;
        w.through.push_back(t);
        w.nodes.push_back(p.id);
        if (p.opType != "Identity") {
            const size_t rank = x.shape.rank();
            int64_t axis = p.attrIntOr("axis", 1);
            if (axis < 0)
                axis += int64_t(rank);
            for (size_t i = 1; i < p.inputs.size() && i <= 2; ++i) {
                if (!p.inputs[i].valid())
                    continue;
                const auto& shape = g.tensor(p.inputs[i]).shape;
                if (shape.rank() != 1 || shape.dims[0] <= 1 || axis < 0)
                    continue; // per tensor: not resized
                std::vector<TensorId> chain = throughIdentities(g, p.inputs[i]);
                if (chain.empty())
                    return std::nullopt; // computed parameters: not a stored weight
                w.perChannel.push_back({std::move(chain), size_t(axis)});
            }
        }
        t = p.inputs[0];
    }
    return std::nullopt;
}

std::vector<TensorId> resizeWeight(Graph& g, GraphPatch& patch, const StoredWeight& w, size_t axis,
                                   int64_t value) {
    std::vector<TensorId> stored{w.stored};
    resizeTensorDim(g, patch, w.stored, axis, value);
    for (TensorId t : w.through)
        resizeTensorDim(g, patch, t, axis, value);
    for (const auto& pc : w.perChannel) {
        if (pc.axis != axis)
            continue;
        for (TensorId t : pc.tensors) {
            // The same parameter read by the Q and the DQ is listed twice: resized once.
            if (g.tensor(t).shape.rank() == 1 && g.tensor(t).shape.dims[0] != value) {
                resizeTensorDim(g, patch, t, 0, value);
                if (g.tensor(t).isInitializer)
                    stored.push_back(t);
            }
        }
    }
    return stored;
}

void requireWeightUnshared(const Graph& g, const StoredWeight& w, NodeId layer, const std::string& name,
                           size_t axis) {
    // Its own readers: the layer, the chain's nodes, and the Identity nodes that pass a parameter on.
    std::vector<NodeId> own{layer};
    own.insert(own.end(), w.nodes.begin(), w.nodes.end());
    std::vector<TensorId> resized{w.stored};
    resized.insert(resized.end(), w.through.begin(), w.through.end());
    for (const auto& pc : w.perChannel) {
        if (pc.axis != axis)
            continue;
        resized.insert(resized.end(), pc.tensors.begin(), pc.tensors.end());
        for (TensorId t : pc.tensors)
            if (g.tensor(t).producer.valid())
                own.push_back(g.tensor(t).producer);
    }
    for (TensorId t : resized)
        for (NodeId c : g.tensor(t).consumers)
            if (std::find(own.begin(), own.end(), c) == own.end())
                throw EditError("the weight of '" + name + "' is shared with other nodes (through '" +
                                g.tensor(t).name + "'); edit would change them too");
}

} // namespace bpu
