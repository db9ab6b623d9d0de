// SPDX-License-Identifier: MIT
#include "GraphCut.h"
#include "GraphRebuild.h"

#include <set>
#include <stdexcept>

namespace bpu {

namespace {

struct Plan {
    std::vector<bool> kept;        ///< by node
    std::vector<TensorId> outputs; ///< the outputs after the cut, in order
};

Plan plan(const Graph& g, const std::vector<std::string>& names) {
    if (names.empty())
        throw std::invalid_argument("cut_at needs at least one tensor");
    std::vector<TensorId> cut;
    std::set<std::string> seen;
    for (const auto& name : names) {
        const TensorId id = g.findTensor(name);
        if (!id.valid())
            throw std::invalid_argument("no tensor named '" + name + "'");
        if (!seen.insert(name).second)
            throw std::invalid_argument("tensor '" + name + "' is named twice");
        const Tensor& t = g.tensor(id);
        if (t.isGraphInput)
            throw std::invalid_argument("'" + name + "' is a model input: cutting there leaves no model");
        if (t.isInitializer || !t.producer.valid())
            throw std::invalid_argument("'" + name + "' is a weight, not a tensor a node computes");
        cut.push_back(id);
    }
    // Tensors that depend on a cut tensor: what the cut removes from the model's outputs.
    std::vector<bool> isCut(g.tensors.size(), false), below(g.tensors.size(), false);
    for (TensorId t : cut)
        isCut[t.value] = true;
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        bool dep = false;
        for (TensorId in : n.inputs)
            dep = dep || (in.valid() && (isCut[in.value] || below[in.value]));
        if (dep)
            for (TensorId o : n.outputs)
                if (o.valid())
                    below[o.value] = true;
    }

    Plan p;
    p.outputs = cut;
    for (TensorId o : g.outputs)
        if (!below[o.value] && !isCut[o.value])
            p.outputs.push_back(o);
    // Nodes the new outputs need.
    p.kept.assign(g.nodes.size(), false);
    std::vector<TensorId> todo = p.outputs;
    while (!todo.empty()) {
        const TensorId t = todo.back();
        todo.pop_back();
        const NodeId producer = g.tensor(t).producer;
        if (!producer.valid() || p.kept[producer.value])
            continue;
        p.kept[producer.value] = true;
        for (TensorId in : g.node(producer).inputs)
            if (in.valid())
                todo.push_back(in);
    }
    size_t dropped = 0;
    for (bool k : p.kept)
        dropped += !k;
    const std::set<uint32_t> before = [&] {
        std::set<uint32_t> ids;
        for (TensorId t : g.outputs)
            ids.insert(t.value);
        return ids;
    }();
    std::set<uint32_t> after;
    for (TensorId t : p.outputs)
        after.insert(t.value);
    if (dropped == 0 && before == after)
        throw std::invalid_argument("the cut drops nothing: the tensors are already model outputs and feed "
                                    "nothing else");
    return p;
}

} // namespace

std::vector<bool> GraphCut::keptNodes(const Graph& g, const std::vector<std::string>& tensors) {
    return plan(g, tensors).kept;
}

Graph GraphCut::apply(const Graph& g, const std::vector<std::string>& tensors) {
    const Plan p = plan(g, tensors);
    // Tensors still referenced: by a kept node, as a model input or as a new output.
    std::vector<bool> used(g.tensors.size(), false);
    for (const auto& n : g.nodes)
        if (p.kept[n.id.value]) {
            for (TensorId t : n.inputs)
                if (t.valid())
                    used[t.value] = true;
            for (TensorId t : n.outputs)
                if (t.valid())
                    used[t.value] = true;
        }
    for (TensorId t : g.inputs)
        used[t.value] = true;
    for (TensorId t : p.outputs)
        used[t.value] = true;

    Graph out = emptyLike(g);
    std::vector<TensorId> tensorMap(g.tensors.size());
    for (const auto& t : g.tensors) {
        if (!used[t.id.value])
            continue;
        const TensorId id = out.internTensor(t.name);
        tensorMap[t.id.value] = id;
        copyTensorFacts(out.tensor(id), t);
    }
    auto remap = [&](TensorId t) {
        return t.valid() ? tensorMap[t.value] : TensorId{};
    };
    std::vector<NodeId> nodeMap(g.nodes.size());
    for (const auto& n : g.nodes) {
        if (!p.kept[n.id.value])
            continue;
        Node copy = n;
        for (TensorId& t : copy.inputs)
            t = remap(t);
        for (TensorId& t : copy.outputs)
            t = remap(t);
        nodeMap[n.id.value] = out.addNode(std::move(copy));
    }
    for (auto& n : out.nodes) // a data-dependent source upstream is kept with the node that depends on it
        n.dataDependentOn = n.dataDependentOn.valid() ? nodeMap[n.dataDependentOn.value] : NodeId{};
    for (TensorId t : g.inputs)
        out.inputs.push_back(remap(t));
    for (TensorId t : p.outputs) {
        out.outputs.push_back(remap(t));
        out.tensor(remap(t)).isGraphOutput = true;
    }
    out.link();
    return out;
}

} // namespace bpu
