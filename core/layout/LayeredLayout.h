// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/Progress.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace bpu::layout {

/// Width and height of a box, in scene units.
struct Size {
    double w = 0;
    double h = 0;
};

/// A point in scene units (y grows downwards).
struct Point {
    double x = 0;
    double y = 0;
};

/// An axis-aligned rectangle: top-left corner plus size.
struct Rect {
    double x = 0;
    double y = 0;
    double w = 0;
    double h = 0;
    double cx() const { return x + w / 2; }
    double bottom() const { return y + h; }
    double right() const { return x + w; }
};

/// A directed graph to lay out: nodes 0..sizes.size()-1 and edges (from, to) between them. It should be a
/// DAG; cycles are broken by reversing DFS back edges, duplicate edges share one route, self loops are
/// ignored.
struct Input {
    std::vector<Size> sizes;
    std::vector<std::pair<int, int>> edges;
};

/// Where crossing reduction starts from.
enum class InitialOrder {
    Dfs,      ///< DFS preorder from the sources (the default; chains stay together)
    Input,    ///< nodes by index, virtual nodes after them (a naive baseline)
    Shuffled, ///< a seeded random permutation of each layer (a baseline for tests)
};

/// Spacing and effort knobs.
struct Options {
    double layerGap = 44; ///< vertical space between the bottom of one layer and the top of the next
    double nodeGap = 28;  ///< horizontal space between two boxes in a layer
    double edgeGap = 14;  ///< horizontal space between two long edges passing through a layer
    int maxSweeps = 24;   ///< crossing-reduction sweeps (0 = keep the initial DFS order)
    int patience = 4;     ///< stop after this many sweeps without fewer crossings
    bool pullDown = true; ///< move nodes with more outgoing than incoming edges down towards their consumers
    InitialOrder initialOrder = InitialOrder::Dfs;
    uint32_t shuffleSeed = 1;
    /// Its cancel flag stops the layout between phases and crossing-reduction sweeps (Cancelled is thrown):
    /// a layout superseded by a newer request stops instead of finishing for nothing.
    Progress progress;
};

/// Figures about one run, for benchmarks and tests.
struct Stats {
    int layers = 0;
    int dummies = 0;              ///< virtual nodes inserted on edges spanning more than one layer
    int64_t crossingsInitial = 0; ///< edge crossings of the initial order (as counted by the layout itself)
    int64_t crossingsFinal = 0;
    int sweeps = 0;
    double msLayering = 0;
    double msOrdering = 0;
    double msPositioning = 0;
};

/// Where everything goes.
struct Result {
    std::vector<Rect> nodes;  ///< per input node
    std::vector<int> layerOf; ///< per input node, 0 = top
    /// Per input edge, from the source's bottom centre to the target's top centre, through the long edge's
    /// virtual nodes (two points each: where it enters and leaves the layer band). Empty for self loops.
    std::vector<std::vector<Point>> edges;
    std::vector<bool> reversed; ///< per input edge: it closed a cycle and was drawn upwards
    double width = 0;
    double height = 0;
    Stats stats;
};

/// Lays out a directed graph top to bottom with the layered method of Sugiyama, Tagawa and Toda ("Methods
/// for visual understanding of hierarchical system structures", IEEE SMC 1981):
///  1. cycle removal by DFS back-edge reversal, layers by longest path from the sources, then nodes with more
///     outgoing than incoming edges pulled down towards their consumers (a cheap stand-in for the network
///     simplex of Gansner et al., "A technique for drawing directed graphs", IEEE TSE 1993);
///  2. virtual (dummy) nodes on edges spanning several layers;
///  3. crossing reduction: DFS initial order, alternating down/up layer sweeps with the barycenter heuristic,
///     keeping the best order, crossings counted with the accumulator tree of Barth, Juenger and Mutzel
///     ("Simple and efficient bilayer cross counting", JGAA 2004);
///  4. x coordinates by Brandes and Koepf ("Fast and simple horizontal coordinate assignment", GD 2001):
///     four vertical alignments with type-1 conflicts resolved in favour of long-edge segments, block
///     compaction, balanced by the median of the four. One addition: a segment from a real node to a virtual
///     node is not aligned when that real node has a real neighbour in the same layer, so a main chain stays
///     straight and a skip edge (ResNet shortcut, YOLO lateral) bends out and runs beside it.
/// Runs in roughly O((V + D) log(V + D)) per sweep for V nodes and D virtual nodes.
Result layeredLayout(const Input& input, const Options& options = {});

} // namespace bpu::layout
