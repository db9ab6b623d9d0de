// SPDX-License-Identifier: MIT
#include "Graph.h"

#include <atomic>
#include <queue>
#include <stdexcept>

namespace bpu {

namespace {

/// The name at a position of the graph's tables, for NameIndex's probes.
struct TensorName {
    const std::vector<Tensor>& tensors;
    const std::string& operator()(uint32_t i) const { return tensors[i].name; }
};
struct NodeName {
    const std::vector<Node>& nodes;
    const std::string& operator()(uint32_t i) const { return nodes[i].name; }
};

} // namespace

TensorId Graph::findTensor(const std::string& name) const {
    const uint32_t i = tensorByName_.find(name, TensorName{tensors});
    return i == NameIndex::kNone ? TensorId{} : TensorId{i};
}

NodeId Graph::findNode(const std::string& name) const {
    const uint32_t i = nodeByName_.find(name, NodeName{nodes});
    return i == NameIndex::kNone ? NodeId{} : NodeId{i};
}

TensorId Graph::internTensor(const std::string& name) {
    // One probe whether the name is new or not; a new name is stored before its tensor exists, which the
    // index allows (it reads only names already stored).
    const TensorId next{static_cast<uint32_t>(tensors.size())};
    const uint32_t stored = tensorByName_.insert(name, next.value, TensorName{tensors});
    if (stored != next.value)
        return TensorId{stored};
    Tensor t;
    t.id = next;
    t.name = name;
    tensors.push_back(std::move(t));
    return next;
}

NodeId Graph::addNode(Node n) {
    NodeId id{static_cast<uint32_t>(nodes.size())};
    n.id = id;
    // Names must be unique for lookups and edits; exporters sometimes repeat or omit them. The usual case (a
    // new name) costs one probe.
    if (n.name.empty() || nodeByName_.insert(n.name, id.value, NodeName{nodes}) != id.value) {
        n.name = (n.name.empty() ? n.opType : n.name) + "_" + std::to_string(id.value);
        nodeByName_.insert(n.name, id.value, NodeName{nodes});
    }
    nodes.push_back(std::move(n));
    return id;
}

void Graph::reserve(std::size_t nodeCount, std::size_t tensorCount) {
    nodes.reserve(nodeCount);
    nodeByName_.reserve(nodeCount);
    tensors.reserve(tensorCount);
    tensorByName_.reserve(tensorCount);
}

int64_t Graph::defaultOpset() const {
    for (const char* d : {"", "ai.onnx"}) {
        auto it = opsets.find(d);
        if (it != opsets.end())
            return it->second;
    }
    return 0;
}

void Graph::link() {
    static std::atomic<uint64_t> stamps{0};
    structureStamp = ++stamps;
    for (auto& t : tensors) {
        t.consumers.clear();
        t.producer = NodeId{};
    }
    for (const auto& n : nodes) {
        for (TensorId in : n.inputs)
            if (in.valid())
                tensors[in.value].consumers.push_back(n.id);
        for (TensorId out : n.outputs)
            if (out.valid())
                tensors[out.value].producer = n.id;
    }
    sortTopologically();
}

void Graph::sortTopologically() {
    // Kahn's algorithm, ties broken by model order so the order is stable and matches the file where it can.
    std::vector<uint32_t> pending(nodes.size(), 0);
    for (const auto& n : nodes)
        for (TensorId in : n.inputs)
            if (in.valid() && tensors[in.value].producer.valid())
                ++pending[n.id.value];
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t i = 0; i < nodes.size(); ++i)
        if (pending[i] == 0)
            ready.push(i);
    topoOrder.clear();
    topoOrder.reserve(nodes.size());
    while (!ready.empty()) {
        uint32_t i = ready.top();
        ready.pop();
        topoOrder.push_back(NodeId{i});
        for (TensorId out : nodes[i].outputs) {
            if (!out.valid())
                continue;
            for (NodeId c : tensors[out.value].consumers)
                if (--pending[c.value] == 0)
                    ready.push(c.value);
        }
    }
    if (topoOrder.size() != nodes.size()) {
        for (uint32_t i = 0; i < nodes.size(); ++i)
            if (pending[i] > 0)
                throw std::runtime_error("the graph has a cycle through node '" + nodes[i].name + "' (" +
                                         nodes[i].opType + ")");
    }
    topoIndex_.assign(nodes.size(), 0);
    for (uint32_t pos = 0; pos < topoOrder.size(); ++pos)
        topoIndex_[topoOrder[pos].value] = pos;
}

} // namespace bpu
