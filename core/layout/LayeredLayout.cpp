// SPDX-License-Identifier: MIT
#include "LayeredLayout.h"

#include "LayoutInternal.h"

#include <algorithm>
#include <chrono>

namespace bpu::layout {

namespace {
double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

Result layeredLayout(const Input& input, const Options& options) {
    using namespace detail;
    Result r;
    const int n = static_cast<int>(input.sizes.size());
    r.nodes.resize(n);
    r.layerOf.assign(n, 0);
    r.edges.assign(input.edges.size(), {});
    r.reversed.assign(input.edges.size(), false);
    if (n == 0)
        return r;

    options.progress.checkCancel();
    auto t0 = std::chrono::steady_clock::now();
    const EdgeSet edges = orientEdges(n, input.edges);
    const std::vector<int> layerOf = assignLayers(n, edges.edges, options.pullDown);
    std::vector<std::vector<int>> chains;
    LayeredGraph g = buildLayered(input, edges, layerOf, chains);
    r.stats.layers = static_cast<int>(g.order.size());
    r.stats.dummies = g.size() - n;
    r.stats.msLayering = msSince(t0);

    t0 = std::chrono::steady_clock::now();
    initialOrder(g, options.initialOrder, options.shuffleSeed);
    options.progress.checkCancel();
    r.stats.sweeps = reduceCrossings(g, options.maxSweeps, options.patience, r.stats.crossingsInitial,
                                     r.stats.crossingsFinal, options.progress);
    options.progress.checkCancel();
    r.stats.msOrdering = msSince(t0);

    t0 = std::chrono::steady_clock::now();
    std::vector<double> x = assignX(g, options);
    double minLeft = 0;
    bool first = true;
    for (int v = 0; v < g.size(); ++v) {
        double left = x[v] - g.width[v] / 2;
        if (first || left < minLeft)
            minLeft = left;
        first = false;
    }
    for (double& xv : x)
        xv -= minLeft;

    // Layer bands: each as tall as its tallest box; boxes are centred vertically in their band.
    std::vector<double> bandTop(g.order.size()), bandHeight(g.order.size(), 0);
    for (int v = 0; v < n; ++v)
        bandHeight[g.layer[v]] = std::max(bandHeight[g.layer[v]], g.height[v]);
    double y = 0;
    for (size_t l = 0; l < g.order.size(); ++l) {
        bandTop[l] = y;
        y += bandHeight[l] + options.layerGap;
    }
    r.height = y - options.layerGap;
    for (int v = 0; v < n; ++v) {
        const int l = g.layer[v];
        r.nodes[v] = Rect{x[v] - g.width[v] / 2, bandTop[l] + (bandHeight[l] - g.height[v]) / 2, g.width[v],
                          g.height[v]};
        r.layerOf[v] = l;
        r.width = std::max(r.width, r.nodes[v].right());
    }
    for (int v = n; v < g.size(); ++v)
        r.width = std::max(r.width, x[v]);

    // Routes: out of the source's bottom, straight down through each virtual node's band, into the target's
    // top.
    std::vector<std::vector<Point>> routes(chains.size());
    for (size_t e = 0; e < chains.size(); ++e) {
        const auto& chain = chains[e];
        auto& pts = routes[e];
        pts.reserve(2 * chain.size());
        pts.push_back({x[chain.front()], r.nodes[chain.front()].bottom()});
        for (size_t i = 1; i + 1 < chain.size(); ++i) {
            const int d = chain[i];
            pts.push_back({x[d], bandTop[g.layer[d]]});
            pts.push_back({x[d], bandTop[g.layer[d]] + bandHeight[g.layer[d]]});
        }
        pts.push_back({x[chain.back()], r.nodes[chain.back()].y});
    }
    for (size_t e = 0; e < input.edges.size(); ++e) {
        const int m = edges.edgeOfInput[e];
        if (m < 0)
            continue;
        r.edges[e] = routes[m];
        if (edges.reversedInput[e]) {
            std::reverse(r.edges[e].begin(), r.edges[e].end());
            r.reversed[e] = true;
        }
    }
    r.stats.msPositioning = msSince(t0);
    return r;
}

} // namespace bpu::layout
