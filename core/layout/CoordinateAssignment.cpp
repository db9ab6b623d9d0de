// SPDX-License-Identifier: MIT
// Phase 4 of the layered layout: x coordinates after Brandes and Koepf (GD 2001), following the structure of
// their paper (vertical alignment, horizontal compaction, balancing) with compaction done on an explicit
// block graph by longest path, as dagre does, so deep graphs need no recursion.
#include "LayoutInternal.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_set>

namespace bpu::layout::detail {

namespace {

uint64_t key(int upper, int lower) {
    return (uint64_t(uint32_t(upper)) << 32) | uint32_t(lower);
}

/// Segments keyed (upper vertex, lower vertex). `type1` segments may not be aligned although they may be a
/// vertex's median; `avoid` segments are not even candidates for the median.
struct Conflicts {
    std::unordered_set<uint64_t> type1;
    std::unordered_set<uint64_t> avoid;
};

Conflicts findConflicts(const LayeredGraph& g) {
    Conflicts c;
    // Type 1 (Brandes-Koepf): a non-inner segment crossing an inner (virtual-virtual) segment yields.
    for (size_t l = 1; l < g.order.size(); ++l) {
        const auto& lay = g.order[l];
        const int prevLen = static_cast<int>(g.order[l - 1].size());
        int k0 = 0;
        size_t scan = 0;
        for (size_t i = 0; i < lay.size(); ++i) {
            int v = lay[i];
            int inner = -1;
            if (g.dummy(v))
                for (int u : g.up[v])
                    if (g.dummy(u))
                        inner = u;
            int k1 = inner >= 0 ? g.pos[inner] : prevLen - 1;
            if (inner >= 0 || i + 1 == lay.size()) {
                for (; scan <= i; ++scan) {
                    int w = lay[scan];
                    for (int u : g.up[w]) {
                        int p = g.pos[u];
                        if ((p < k0 || k1 < p) && !(g.dummy(u) && g.dummy(w)))
                            c.type1.insert(key(u, w));
                    }
                }
                k0 = k1;
            }
        }
    }
    // Our addition, so the spine of a network stays straight and side paths bend away from it: where a real
    // node has real and virtual neighbours on one side, it may only align with a real one; where it has
    // several real neighbours, only with the one heading the path with the most real nodes (if that one is
    // unique). On a ResNet stage boundary that keeps the main chain, not the downsample shortcut, in line.
    const int n = g.size();
    std::vector<int> below(n, 0), above(n, 0); // real nodes on the heaviest path down / up, self included
    for (auto l = g.order.rbegin(); l != g.order.rend(); ++l)
        for (int v : *l) {
            int best = 0;
            for (int w : g.down[v])
                best = std::max(best, below[w]);
            below[v] = best + (g.dummy(v) ? 0 : 1);
        }
    for (const auto& lay : g.order)
        for (int v : lay) {
            int best = 0;
            for (int u : g.up[v])
                best = std::max(best, above[u]);
            above[v] = best + (g.dummy(v) ? 0 : 1);
        }
    for (int v = 0; v < g.realCount; ++v) {
        for (int side = 0; side < 2; ++side) {
            const auto& nbrs = side == 0 ? g.up[v] : g.down[v];
            const auto& weight = side == 0 ? above : below;
            auto mark = [&](int w) {
                c.avoid.insert(side == 0 ? key(w, v) : key(v, w));
            };
            int reals = 0, heaviest = -1, ties = 0;
            for (int w : nbrs) {
                if (g.dummy(w))
                    continue;
                ++reals;
                if (heaviest < 0 || weight[w] > weight[heaviest]) {
                    heaviest = w;
                    ties = 0;
                } else if (weight[w] == weight[heaviest]) {
                    ++ties;
                }
            }
            if (reals == 0)
                continue;
            for (int w : nbrs)
                if (g.dummy(w) || (ties == 0 && w != heaviest))
                    mark(w);
        }
    }
    return c;
}

struct Alignment {
    std::vector<int> root;
    std::vector<int> align;
};

/// One of the four alignments: `downwards` aligns each vertex with its upper neighbours, layer by layer from
/// the top; `leftToRight` scans each layer from the left. `rank` is the position in the scan direction.
Alignment verticalAlignment(const LayeredGraph& g, const Conflicts& conflicts, bool downwards,
                            bool leftToRight, const std::vector<int>& rank) {
    const int n = g.size();
    Alignment a;
    a.root.resize(n);
    a.align.resize(n);
    for (int v = 0; v < n; ++v)
        a.root[v] = a.align[v] = v;
    const int layers = static_cast<int>(g.order.size());
    std::vector<int> ws;
    for (int li = 0; li < layers; ++li) {
        const auto& lay = g.order[downwards ? li : layers - 1 - li];
        int prev = -1;
        const int len = static_cast<int>(lay.size());
        for (int j = 0; j < len; ++j) {
            int v = lay[leftToRight ? j : len - 1 - j];
            const auto& nbrs = downwards ? g.up[v] : g.down[v];
            if (nbrs.empty())
                continue;
            auto seg = [&](int w) {
                return downwards ? key(w, v) : key(v, w);
            };
            // Leaf neighbours (a source above, a sink below: Constants, weight Identities, output heads) are
            // stubs; aligning with one would pull a chain aside, so they only count when nothing else does.
            ws.clear();
            bool anyInner = false;
            for (int w : nbrs) {
                if (conflicts.avoid.count(seg(w)))
                    continue;
                ws.push_back(w);
                anyInner |= g.dummy(w) || !(downwards ? g.up[w].empty() : g.down[w].empty());
            }
            if (anyInner)
                ws.erase(std::remove_if(ws.begin(), ws.end(),
                                        [&](int w) {
                                            return !g.dummy(w) &&
                                                   (downwards ? g.up[w].empty() : g.down[w].empty());
                                        }),
                         ws.end());
            if (ws.empty())
                continue;
            std::sort(ws.begin(), ws.end(), [&](int x, int y) { return rank[x] < rank[y]; });
            const int d = static_cast<int>(ws.size());
            const int cand[2] = {(d - 1) / 2, d / 2};
            const int count = cand[0] == cand[1] ? 1 : 2;
            for (int k = 0; k < count && a.align[v] == v; ++k) {
                int w = ws[cand[k]];
                bool conflict = conflicts.type1.count(seg(w)) != 0;
                if (!conflict && prev < rank[w]) {
                    a.align[w] = v;
                    a.root[v] = a.root[w];
                    a.align[v] = a.root[v];
                    prev = rank[w];
                }
            }
        }
    }
    return a;
}

double separation(const LayeredGraph& g, const Options& o, int u, int v) {
    double gu = g.dummy(u) ? o.edgeGap : o.nodeGap;
    double gv = g.dummy(v) ? o.edgeGap : o.nodeGap;
    return (g.width[u] + g.width[v]) / 2 + (gu + gv) / 2;
}

/// Places blocks as far left as their left neighbours allow, then pulls each right towards its right
/// neighbours; returns x per vertex in scan coordinates (mirrored for right-to-left scans).
std::vector<double> horizontalCompaction(const LayeredGraph& g, const Options& o, const Alignment& a,
                                         bool leftToRight) {
    const int n = g.size();
    struct Arc {
        int to;
        double w;
    };
    std::vector<std::vector<Arc>> out(n);
    std::vector<int> indeg(n, 0);
    for (const auto& lay : g.order) {
        const int len = static_cast<int>(lay.size());
        for (int j = 1; j < len; ++j) {
            int u = lay[leftToRight ? j - 1 : len - j];
            int v = lay[leftToRight ? j : len - 1 - j];
            out[a.root[u]].push_back({a.root[v], separation(g, o, u, v)});
            ++indeg[a.root[v]];
        }
    }
    std::vector<int> topo;
    topo.reserve(n);
    for (int v = 0; v < n; ++v)
        if (a.root[v] == v && indeg[v] == 0)
            topo.push_back(v);
    for (size_t i = 0; i < topo.size(); ++i)
        for (const Arc& e : out[topo[i]])
            if (--indeg[e.to] == 0)
                topo.push_back(e.to);

    std::vector<double> xs(n, 0);
    for (int b : topo)
        for (const Arc& e : out[b])
            xs[e.to] = std::max(xs[e.to], xs[b] + e.w);
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        int b = *it;
        if (out[b].empty())
            continue;
        double lim = std::numeric_limits<double>::infinity();
        for (const Arc& e : out[b])
            lim = std::min(lim, xs[e.to] - e.w);
        xs[b] = std::max(xs[b], lim);
    }
    std::vector<double> x(n);
    for (int v = 0; v < n; ++v)
        x[v] = leftToRight ? xs[a.root[v]] : -xs[a.root[v]];
    return x;
}

} // namespace

std::vector<double> assignX(const LayeredGraph& g, const Options& options) {
    const int n = g.size();
    if (n == 0)
        return {};
    const Conflicts conflicts = findConflicts(g);
    std::vector<int> rankLeft(n), rankRight(n);
    for (const auto& lay : g.order)
        for (size_t i = 0; i < lay.size(); ++i) {
            rankLeft[lay[i]] = static_cast<int>(i);
            rankRight[lay[i]] = static_cast<int>(lay.size() - 1 - i);
        }

    std::array<std::vector<double>, 4> xs;
    std::array<double, 4> lo, hi;
    for (int k = 0; k < 4; ++k) {
        bool downwards = k < 2;
        bool leftToRight = k % 2 == 0;
        const auto& rank = leftToRight ? rankLeft : rankRight;
        Alignment a = verticalAlignment(g, conflicts, downwards, leftToRight, rank);
        xs[k] = horizontalCompaction(g, options, a, leftToRight);
        lo[k] = std::numeric_limits<double>::infinity();
        hi[k] = -lo[k];
        for (int v = 0; v < n; ++v) {
            lo[k] = std::min(lo[k], xs[k][v] - g.width[v] / 2);
            hi[k] = std::max(hi[k], xs[k][v] + g.width[v] / 2);
        }
    }
    // Align all four to the narrowest: left-scanned ones by their left edge, right-scanned by their right.
    int narrow = 0;
    for (int k = 1; k < 4; ++k)
        if (hi[k] - lo[k] < hi[narrow] - lo[narrow])
            narrow = k;
    for (int k = 0; k < 4; ++k) {
        double delta = k % 2 == 0 ? lo[narrow] - lo[k] : hi[narrow] - hi[k];
        for (double& x : xs[k])
            x += delta;
    }
    std::vector<double> x(n);
    for (int v = 0; v < n; ++v) {
        std::array<double, 4> c = {xs[0][v], xs[1][v], xs[2][v], xs[3][v]};
        std::sort(c.begin(), c.end());
        x[v] = (c[1] + c[2]) / 2;
    }
    // The balanced median can in rare cases bring neighbours closer than their separation: push them apart.
    for (const auto& lay : g.order)
        for (size_t i = 1; i < lay.size(); ++i)
            x[lay[i]] = std::max(x[lay[i]], x[lay[i - 1]] + separation(g, options, lay[i - 1], lay[i]));
    return x;
}

} // namespace bpu::layout::detail
