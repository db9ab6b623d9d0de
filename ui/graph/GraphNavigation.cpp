// SPDX-License-Identifier: MIT
#include "GraphNavigation.h"

#include <algorithm>

namespace bpu::ui {

namespace {

/// Every node reading an output of `n`, in output then consumer order, each once.
std::vector<NodeId> consumers(const Graph& g, NodeId n) {
    std::vector<NodeId> out;
    for (TensorId t : g.node(n).outputs)
        if (t.valid())
            for (NodeId c : g.tensor(t).consumers)
                if (std::find(out.begin(), out.end(), c) == out.end())
                    out.push_back(c);
    return out;
}

NodeId producer(const Graph& g, NodeId n) {
    for (TensorId t : g.node(n).inputs)
        if (t.valid() && g.tensor(t).producer.valid())
            return g.tensor(t).producer;
    return {};
}

} // namespace

NodeId graphNeighbour(const Graph& g, NodeId from, NavStep step) {
    if (!from.valid() || from.value >= g.nodes.size())
        return {};
    switch (step) {
    case NavStep::Down: {
        const auto c = consumers(g, from);
        return c.empty() ? NodeId{} : c.front();
    }
    case NavStep::Up:
        return producer(g, from);
    case NavStep::Next:
    case NavStep::Previous: {
        // Siblings share the producer Up goes to: the branches of a split, the two sides of a SiLU.
        const NodeId p = producer(g, from);
        if (!p.valid())
            return {};
        const auto siblings = consumers(g, p);
        const auto it = std::find(siblings.begin(), siblings.end(), from);
        if (siblings.size() < 2 || it == siblings.end())
            return {};
        const long n = long(siblings.size()), i = long(it - siblings.begin());
        return siblings[size_t(((i + (step == NavStep::Next ? 1 : -1)) % n + n) % n)];
    }
    }
    return {};
}

} // namespace bpu::ui
