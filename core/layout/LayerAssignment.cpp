// SPDX-License-Identifier: MIT
// Phases 1 and 2 of the layered layout: cycle removal, layering, virtual nodes.
#include "LayoutInternal.h"

#include <algorithm>
#include <unordered_map>

namespace bpu::layout::detail {

int LayeredGraph::addVertex(int l, double w, double h) {
    layer.push_back(l);
    width.push_back(w);
    height.push_back(h);
    up.emplace_back();
    down.emplace_back();
    return size() - 1;
}

void LayeredGraph::updatePositions() {
    pos.assign(layer.size(), 0);
    for (const auto& lay : order)
        for (size_t i = 0; i < lay.size(); ++i)
            pos[lay[i]] = static_cast<int>(i);
}

EdgeSet orientEdges(int nodeCount, const std::vector<std::pair<int, int>>& edges) {
    EdgeSet out;
    out.edgeOfInput.assign(edges.size(), -1);
    out.reversedInput.assign(edges.size(), false);

    // Adjacency by input edge index, so a back edge found by the DFS can be flagged on the input edge.
    std::vector<int> start(nodeCount + 1, 0);
    for (const auto& [a, b] : edges)
        if (a != b)
            ++start[a + 1];
    for (int i = 0; i < nodeCount; ++i)
        start[i + 1] += start[i];
    std::vector<int> adj(start.back());
    {
        std::vector<int> fill(start.begin(), start.end() - 1);
        for (size_t e = 0; e < edges.size(); ++e)
            if (edges[e].first != edges[e].second)
                adj[fill[edges[e].first]++] = static_cast<int>(e);
    }

    // Iterative DFS; an edge into a vertex still on the stack closes a cycle and is reversed.
    std::vector<char> state(nodeCount, 0);  // 0 new, 1 on stack, 2 done
    std::vector<std::pair<int, int>> stack; // (vertex, next adjacency slot)
    for (int s = 0; s < nodeCount; ++s) {
        if (state[s])
            continue;
        stack.push_back({s, start[s]});
        state[s] = 1;
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            if (next == start[v + 1]) {
                state[v] = 2;
                stack.pop_back();
                continue;
            }
            int e = adj[next++];
            int w = edges[e].second;
            if (state[w] == 1) {
                out.reversedInput[e] = true;
            } else if (state[w] == 0) {
                state[w] = 1;
                stack.push_back({w, start[w]});
            }
        }
    }

    std::unordered_map<uint64_t, int> merged;
    merged.reserve(edges.size() * 2);
    for (size_t e = 0; e < edges.size(); ++e) {
        auto [a, b] = edges[e];
        if (a == b)
            continue;
        if (out.reversedInput[e])
            std::swap(a, b);
        uint64_t key = (uint64_t(uint32_t(a)) << 32) | uint32_t(b);
        auto [it, added] = merged.try_emplace(key, static_cast<int>(out.edges.size()));
        if (added)
            out.edges.push_back({a, b});
        out.edgeOfInput[e] = it->second;
    }
    return out;
}

std::vector<int> assignLayers(int nodeCount, const std::vector<std::pair<int, int>>& edges, bool pullDown) {
    std::vector<std::vector<int>> succ(nodeCount), pred(nodeCount);
    for (const auto& [a, b] : edges) {
        succ[a].push_back(b);
        pred[b].push_back(a);
    }
    // Kahn's algorithm; ties in index order keep the layering deterministic.
    std::vector<int> indeg(nodeCount), topo;
    topo.reserve(nodeCount);
    for (int v = 0; v < nodeCount; ++v)
        if ((indeg[v] = static_cast<int>(pred[v].size())) == 0)
            topo.push_back(v);
    for (size_t i = 0; i < topo.size(); ++i)
        for (int w : succ[topo[i]])
            if (--indeg[w] == 0)
                topo.push_back(w);

    std::vector<int> layer(nodeCount, 0);
    for (int v : topo)
        for (int w : succ[v])
            layer[w] = std::max(layer[w], layer[v] + 1);

    if (pullDown) {
        // Moving v down by one layer shortens its outgoing edges and lengthens its incoming ones, so it pays
        // while out-degree exceeds in-degree. Reverse topological order sees consumers placed first. Nodes on
        // a longest path cannot move, so no layer empties.
        for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
            int v = *it;
            if (succ[v].size() <= pred[v].size())
                continue;
            int lowest = layer[succ[v].front()];
            for (int w : succ[v])
                lowest = std::min(lowest, layer[w]);
            layer[v] = std::max(layer[v], lowest - 1);
        }
    }
    return layer;
}

LayeredGraph buildLayered(const Input& input, const EdgeSet& edges, const std::vector<int>& layerOf,
                          std::vector<std::vector<int>>& chains) {
    LayeredGraph g;
    const int n = static_cast<int>(input.sizes.size());
    g.realCount = n;
    g.layer.reserve(n * 2);
    for (int v = 0; v < n; ++v)
        g.addVertex(layerOf[v], input.sizes[v].w, input.sizes[v].h);
    chains.assign(edges.edges.size(), {});
    for (size_t e = 0; e < edges.edges.size(); ++e) {
        auto [a, b] = edges.edges[e];
        auto& chain = chains[e];
        chain.push_back(a);
        int prev = a;
        for (int l = layerOf[a] + 1; l < layerOf[b]; ++l) {
            int d = g.addVertex(l, 0, 0);
            g.down[prev].push_back(d);
            g.up[d].push_back(prev);
            chain.push_back(d);
            prev = d;
        }
        g.down[prev].push_back(b);
        g.up[b].push_back(prev);
        chain.push_back(b);
    }
    int layers = 0;
    for (int l : g.layer)
        layers = std::max(layers, l + 1);
    g.order.assign(layers, {});
    return g;
}

} // namespace bpu::layout::detail
