// SPDX-License-Identifier: MIT
// Phase 3 of the layered layout: order within layers.
#include "LayoutInternal.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace bpu::layout::detail {

void initialOrder(LayeredGraph& g, InitialOrder kind, uint32_t seed) {
    if (kind != InitialOrder::Dfs) {
        for (auto& lay : g.order)
            lay.clear();
        for (int v = 0; v < g.size(); ++v)
            g.order[g.layer[v]].push_back(v);
        if (kind == InitialOrder::Shuffled) {
            std::mt19937 rng(seed);
            for (auto& lay : g.order)
                std::shuffle(lay.begin(), lay.end(), rng);
        }
        g.updatePositions();
        return;
    }
    // DFS preorder from every vertex in (layer, index) order; a chain's vertices land at the same end of
    // their layers, which already avoids most crossings on chain-like networks.
    std::vector<int> starts(g.size());
    std::iota(starts.begin(), starts.end(), 0);
    std::stable_sort(starts.begin(), starts.end(), [&](int a, int b) { return g.layer[a] < g.layer[b]; });
    std::vector<char> seen(g.size(), 0);
    std::vector<int> stack;
    for (auto& lay : g.order)
        lay.clear();
    for (int s : starts) {
        if (seen[s])
            continue;
        stack.push_back(s);
        while (!stack.empty()) {
            int v = stack.back();
            stack.pop_back();
            if (seen[v])
                continue;
            seen[v] = 1;
            g.order[g.layer[v]].push_back(v);
            for (auto it = g.down[v].rbegin(); it != g.down[v].rend(); ++it)
                if (!seen[*it])
                    stack.push_back(*it);
        }
    }
    g.updatePositions();
}

namespace {

/// Crossings between layer l and l+1: edges sorted by (north pos, south pos); the south positions' inversions
/// are counted with a Fenwick tree (the accumulator tree of Barth et al.).
int64_t countBetween(const LayeredGraph& g, int l, std::vector<int>& south, std::vector<int>& tree) {
    const auto& north = g.order[l];
    const int m = static_cast<int>(g.order[l + 1].size());
    south.clear();
    for (int u : north) {
        size_t first = south.size();
        for (int w : g.down[u])
            south.push_back(g.pos[w]);
        std::sort(south.begin() + first, south.end());
    }
    tree.assign(m + 1, 0);
    int64_t crossings = 0;
    int64_t inserted = 0;
    for (int p : south) {
        // count inserted entries <= p
        int64_t le = 0;
        for (int i = p + 1; i > 0; i -= i & -i)
            le += tree[i];
        crossings += inserted - le;
        for (int i = p + 1; i <= m; i += i & -i)
            ++tree[i];
        ++inserted;
    }
    return crossings;
}

/// Reorders layer l by the barycenter of each vertex's neighbours in the fixed adjacent layer. Vertices with
/// no such neighbour keep their slot; ties keep the current order.
void sortLayer(LayeredGraph& g, int l, bool useUp, std::vector<std::pair<double, int>>& keyed) {
    auto& lay = g.order[l];
    keyed.clear();
    std::vector<char> fixed(lay.size(), 0);
    for (size_t i = 0; i < lay.size(); ++i) {
        const auto& nbrs = useUp ? g.up[lay[i]] : g.down[lay[i]];
        if (nbrs.empty()) {
            fixed[i] = 1;
            continue;
        }
        double sum = 0;
        for (int w : nbrs)
            sum += g.pos[w];
        keyed.push_back({sum / static_cast<double>(nbrs.size()), lay[i]});
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t k = 0;
    for (size_t i = 0; i < lay.size(); ++i)
        if (!fixed[i])
            lay[i] = keyed[k++].second;
    for (size_t i = 0; i < lay.size(); ++i)
        g.pos[lay[i]] = static_cast<int>(i);
}

} // namespace

int64_t countCrossings(const LayeredGraph& g) {
    std::vector<int> south, tree;
    int64_t total = 0;
    for (int l = 0; l + 1 < static_cast<int>(g.order.size()); ++l)
        total += countBetween(g, l, south, tree);
    return total;
}

int reduceCrossings(LayeredGraph& g, int maxSweeps, int patience, int64_t& initial, int64_t& final,
                    const Progress& progress) {
    initial = countCrossings(g);
    int64_t best = initial;
    auto bestOrder = g.order;
    int sweeps = 0;
    int stale = 0;
    const int layers = static_cast<int>(g.order.size());
    std::vector<std::pair<double, int>> keyed;
    for (int s = 0; s < maxSweeps && best > 0; ++s) {
        progress.checkCancel();
        ++sweeps;
        if (s % 2 == 0) {
            for (int l = 1; l < layers; ++l)
                sortLayer(g, l, true, keyed);
        } else {
            for (int l = layers - 2; l >= 0; --l)
                sortLayer(g, l, false, keyed);
        }
        int64_t c = countCrossings(g);
        if (c < best) {
            best = c;
            bestOrder = g.order;
            stale = 0;
        } else if (++stale >= patience) {
            break;
        }
    }
    g.order = std::move(bestOrder);
    g.updatePositions();
    final = best;
    return sweeps;
}

} // namespace bpu::layout::detail
