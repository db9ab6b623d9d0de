// SPDX-License-Identifier: MIT
#pragma once

// The stages of layeredLayout() (LayeredLayout.h), split by phase. Internal to core/layout.

#include "LayeredLayout.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace bpu::layout::detail {

/// The "proper" layered graph: real nodes 0..realCount-1, then virtual nodes; every edge joins two adjacent
/// layers. `order[l]` lists layer l left to right and `pos` is each vertex's index in its layer.
struct LayeredGraph {
    int realCount = 0;
    std::vector<double> width;
    std::vector<double> height;
    std::vector<int> layer;
    std::vector<std::vector<int>> up;   ///< neighbours in the layer above
    std::vector<std::vector<int>> down; ///< neighbours in the layer below
    std::vector<std::vector<int>> order;
    std::vector<int> pos;

    int size() const { return static_cast<int>(layer.size()); }
    bool dummy(int v) const { return v >= realCount; }
    int addVertex(int l, double w, double h);
    void updatePositions();
};

/// The input's edges made acyclic and de-duplicated, all pointing downwards.
struct EdgeSet {
    std::vector<std::pair<int, int>> edges;
    std::vector<int> edgeOfInput;    ///< merged edge per input edge; -1 for a self loop
    std::vector<bool> reversedInput; ///< the input edge was reversed to break a cycle
};

/// Reverses DFS back edges and merges parallel edges.
EdgeSet orientEdges(int nodeCount, const std::vector<std::pair<int, int>>& edges);

/// Longest-path layering (sources on layer 0), then optionally pulls nodes with more outgoing than incoming
/// edges down to just above their highest consumer, which shortens the total edge length.
std::vector<int> assignLayers(int nodeCount, const std::vector<std::pair<int, int>>& edges, bool pullDown);

/// Builds the proper layered graph; `chains[e]` receives the vertices of merged edge e, top to bottom.
LayeredGraph buildLayered(const Input& input, const EdgeSet& edges, const std::vector<int>& layerOf,
                          std::vector<std::vector<int>>& chains);

/// Initial order: for Dfs, vertices appended to their layers in DFS preorder from the sources (Gansner et
/// al.); for Input, by vertex index; for Shuffled, a seeded random permutation.
void initialOrder(LayeredGraph& g, InitialOrder kind, uint32_t seed);

/// Total crossings between all pairs of adjacent layers (Barth, Juenger, Mutzel accumulator tree).
int64_t countCrossings(const LayeredGraph& g);

/// Barycenter layer sweeps; keeps the order with the fewest crossings. Returns the number of sweeps run.
int reduceCrossings(LayeredGraph& g, int maxSweeps, int patience, int64_t& initial, int64_t& final,
                    const Progress& progress = {});

/// Brandes-Koepf x coordinate (centre) of every vertex.
std::vector<double> assignX(const LayeredGraph& g, const Options& options);

} // namespace bpu::layout::detail
