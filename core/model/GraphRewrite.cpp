// SPDX-License-Identifier: MIT
#include "GraphRewrite.h"
#include "GraphRebuild.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <set>
#include <stdexcept>

namespace bpu {

namespace {

std::shared_ptr<const onnx::NodeProto> protoOf(const GraphRewrite::NewNode& n, const std::string& name) {
    auto p = std::make_shared<onnx::NodeProto>();
    p->set_op_type(n.opType);
    p->set_name(name);
    for (const auto& in : n.inputs)
        p->add_input(in);
    for (const auto& out : n.outputs)
        p->add_output(out);
    return p;
}

bool sameValue(const ConstValue& a, const ConstValue& b) {
    return a.dtype == b.dtype && a.dims == b.dims && a.ints == b.ints && a.floats == b.floats;
}

} // namespace

Graph GraphRewrite::apply(const Graph& g) const {
    std::vector<bool> removed(g.nodes.size(), false);
    std::set<TensorId> producedByRemoved;
    size_t firstRemoved = g.nodes.size();
    for (NodeId id : remove) {
        if (!id.valid() || id.value >= g.nodes.size())
            throw std::invalid_argument("no such node to remove");
        removed[id.value] = true;
        firstRemoved = std::min<size_t>(firstRemoved, id.value);
        for (TensorId t : g.node(id).outputs)
            if (t.valid())
                producedByRemoved.insert(t);
    }
    std::map<std::string, std::string> readAs;
    for (const auto& [from, to] : rewire) {
        if (!g.findTensor(from).valid() || !g.findTensor(to).valid())
            throw std::invalid_argument("rewire of a tensor that is not there ('" + from + "' -> '" + to +
                                        "')");
        readAs[from] = to;
    }
    std::map<std::string, const NewConstant*> constantByName;
    for (const auto& c : constants) {
        const TensorId existing = g.findTensor(c.name);
        if (existing.valid() && !(g.tensor(existing).value && sameValue(*g.tensor(existing).value, c.value)))
            throw std::invalid_argument("constant '" + c.name + "' exists with another value");
        constantByName[c.name] = &c;
    }
    std::set<std::string> newOutputs;
    for (const auto& n : add) {
        for (const auto& out : n.outputs) {
            const TensorId t = g.findTensor(out);
            if (!t.valid() || !producedByRemoved.count(t))
                throw std::invalid_argument("new node '" + n.name + "' writes '" + out +
                                            "', which no removed node produced");
            if (!newOutputs.insert(out).second)
                throw std::invalid_argument("two new nodes write '" + out + "'");
        }
        for (const auto& in : n.inputs)
            if (!in.empty() && !g.findTensor(in).valid() && !constantByName.count(in))
                throw std::invalid_argument("new node '" + n.name + "' reads '" + in +
                                            "', which is not there");
    }
    // What a tensor is after the rewrite: still produced (by a kept or a new node), an input, an initializer.
    auto available = [&](TensorId t) {
        const Tensor& x = g.tensor(t);
        return !producedByRemoved.count(t) || newOutputs.count(x.name);
    };
    auto resolve = [&](const std::string& name) {
        auto it = readAs.find(name);
        return it == readAs.end() ? name : it->second;
    };

    Graph out = emptyLike(g);
    // Every tensor of the old graph that something still uses, in its old order, then the new constants.
    std::set<std::string> used;
    for (const auto& n : g.nodes)
        if (!removed[n.id.value]) {
            for (TensorId t : n.inputs)
                if (t.valid())
                    used.insert(resolve(g.tensor(t).name));
            for (TensorId t : n.outputs)
                if (t.valid())
                    used.insert(g.tensor(t).name);
        }
    for (const auto& n : add) {
        for (const auto& in : n.inputs)
            if (!in.empty())
                used.insert(in);
        for (const auto& o : n.outputs)
            used.insert(o);
    }
    for (TensorId t : g.inputs)
        used.insert(g.tensor(t).name);
    for (TensorId t : g.outputs)
        used.insert(resolve(g.tensor(t).name));
    for (const auto& t : g.tensors) {
        if (!used.count(t.name))
            continue;
        if (!available(t.id))
            throw std::invalid_argument("'" + t.name +
                                        "' is still read but nothing produces it after the rewrite");
        const TensorId id = out.internTensor(t.name);
        copyTensorFacts(out.tensor(id), t);
    }
    for (const auto& c : constants) {
        if (!used.count(c.name) || g.findTensor(c.name).valid())
            continue;
        Tensor& n = out.tensor(out.internTensor(c.name));
        n.dtype = c.value.dtype;
        n.shape.dims = c.value.dims;
        n.declaredShape = n.shape;
        n.isInitializer = true;
        n.value = std::make_shared<const ConstValue>(c.value);
    }
    auto idOf = [&](const std::string& name) {
        return out.findTensor(name);
    };
    std::set<std::string> names;
    for (const auto& n : g.nodes)
        if (!removed[n.id.value])
            names.insert(n.name);
    auto addNew = [&] {
        for (const auto& n : add) {
            std::string name = n.name;
            for (int k = 2; names.count(name); ++k)
                name = n.name + "_" + std::to_string(k);
            names.insert(name);
            Node node;
            node.name = name;
            node.opType = n.opType;
            node.proto = protoOf(n, name);
            for (const auto& in : n.inputs)
                node.inputs.push_back(in.empty() ? TensorId{} : idOf(in));
            for (const auto& o : n.outputs)
                node.outputs.push_back(idOf(o));
            out.addNode(std::move(node));
        }
    };
    std::vector<NodeId> nodeMap(g.nodes.size());
    for (const auto& n : g.nodes) {
        if (n.id.value == firstRemoved)
            addNew();
        if (removed[n.id.value])
            continue;
        Node copy = n;
        bool renamed = false;
        for (TensorId& t : copy.inputs) {
            if (!t.valid())
                continue;
            const std::string& was = g.tensor(t).name;
            const std::string now = resolve(was);
            renamed = renamed || now != was;
            t = idOf(now);
        }
        // Shape inference runs on the proto, which names its inputs: a rewired reader's proto reads the new
        // names too.
        if (renamed && copy.proto) {
            auto p = std::make_shared<onnx::NodeProto>(*copy.proto);
            for (int i = 0; i < p->input_size(); ++i)
                if (!p->input(i).empty())
                    p->set_input(i, resolve(p->input(i)));
            copy.proto = std::move(p);
        }
        for (TensorId& t : copy.outputs)
            t = t.valid() ? idOf(g.tensor(t).name) : TensorId{};
        nodeMap[n.id.value] = out.addNode(std::move(copy));
    }
    for (auto& n : out.nodes)
        if (n.dataDependentOn.valid())
            n.dataDependentOn =
                removed[n.dataDependentOn.value] ? NodeId{} : nodeMap[n.dataDependentOn.value];
    for (TensorId t : g.inputs)
        out.inputs.push_back(idOf(g.tensor(t).name));
    for (TensorId t : g.outputs) {
        const TensorId id = idOf(resolve(g.tensor(t).name));
        out.outputs.push_back(id);
        out.tensor(id).isGraphOutput = true;
    }
    try {
        out.link();
    } catch (const std::runtime_error& e) {
        throw std::invalid_argument(std::string("the rewrite makes a cycle: ") + e.what());
    }
    return out;
}

} // namespace bpu
