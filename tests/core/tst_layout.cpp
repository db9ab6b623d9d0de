// SPDX-License-Identifier: MIT
// Layered layout: geometry invariants on hand-built DAGs, the samples and a 10k-node synthetic network.
// Crossings are counted here from the output polylines, independently of the layout's own counter.
#include "TestPaths.h"
#include "core/layout/GraphLayoutInput.h"
#include "core/layout/LayeredLayout.h"
#include "core/layout/SyntheticGraph.h"
#include "core/model/ModelImporter.h"

#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace bpu::layout;

namespace {

/// Pairs of boxes that overlap (touching edges allowed). Sweeps in y, which is cheap for layered output.
int overlaps(const std::vector<Rect>& rects) {
    std::vector<int> idx(rects.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](int a, int b) { return rects[a].y < rects[b].y; });
    int count = 0;
    for (size_t i = 0; i < idx.size(); ++i) {
        const Rect& a = rects[idx[i]];
        for (size_t j = i + 1; j < idx.size() && rects[idx[j]].y < a.bottom() - 1e-9; ++j) {
            const Rect& b = rects[idx[j]];
            if (a.x < b.right() - 1e-9 && b.x < a.right() - 1e-9)
                ++count;
        }
    }
    return count;
}

double cross(Point o, Point a, Point b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/// Proper crossings between the straight pieces of all edge polylines; shared endpoints do not count.
int64_t geometricCrossings(const Result& r) {
    struct Seg {
        Point a, b;
    };
    std::vector<Seg> segs;
    for (const auto& pts : r.edges)
        for (size_t i = 1; i < pts.size(); ++i)
            if (pts[i].x != pts[i - 1].x || pts[i].y != pts[i - 1].y)
                segs.push_back({pts[i - 1], pts[i]});
    // Sort by top y so only pieces whose y ranges overlap are compared.
    for (auto& s : segs)
        if (s.b.y < s.a.y)
            std::swap(s.a, s.b);
    std::sort(segs.begin(), segs.end(), [](const Seg& p, const Seg& q) { return p.a.y < q.a.y; });
    int64_t count = 0;
    for (size_t i = 0; i < segs.size(); ++i) {
        for (size_t j = i + 1; j < segs.size() && segs[j].a.y < segs[i].b.y; ++j) {
            const Seg& p = segs[i];
            const Seg& q = segs[j];
            double d1 = cross(p.a, p.b, q.a), d2 = cross(p.a, p.b, q.b);
            double d3 = cross(q.a, q.b, p.a), d4 = cross(q.a, q.b, p.b);
            if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
                ++count;
        }
    }
    return count;
}

/// Every edge: source layer above target layer, route monotone downwards from the source's bottom centre to
/// the target's top centre. Returns the first violation as text, or empty.
QString checkEdges(const Input& in, const Result& r) {
    for (size_t e = 0; e < in.edges.size(); ++e) {
        auto [a, b] = in.edges[e];
        if (a == b)
            continue;
        if (r.reversed[e])
            std::swap(a, b);
        const auto& pts = r.edges[e];
        if (r.layerOf[a] >= r.layerOf[b])
            return QStringLiteral("edge %1: layer %2 -> %3").arg(e).arg(r.layerOf[a]).arg(r.layerOf[b]);
        if (pts.size() < 2)
            return QStringLiteral("edge %1: no route").arg(e);
        std::vector<Point> down = pts;
        if (r.reversed[e])
            std::reverse(down.begin(), down.end());
        if (std::abs(down.front().x - r.nodes[a].cx()) > 1e-6 ||
            std::abs(down.front().y - r.nodes[a].bottom()) > 1e-6)
            return QStringLiteral("edge %1 does not leave its source's bottom centre").arg(e);
        if (std::abs(down.back().x - r.nodes[b].cx()) > 1e-6 || std::abs(down.back().y - r.nodes[b].y) > 1e-6)
            return QStringLiteral("edge %1 does not enter its target's top centre").arg(e);
        for (size_t i = 1; i < down.size(); ++i)
            if (down[i].y < down[i - 1].y)
                return QStringLiteral("edge %1 goes up at point %2").arg(e).arg(i);
    }
    return {};
}

Input uniform(int n, std::vector<std::pair<int, int>> edges) {
    Input in;
    in.sizes.assign(n, Size{100, 40});
    in.edges = std::move(edges);
    return in;
}

bpu::Graph loadSample(const char* name) {
    return bpu::ModelImporter::load(bpu::test::samplesDir() + "/" + name);
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT
private slots:
    void handBuilt_data() {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<QList<int>>("edgeList"); // flattened pairs
        QTest::addColumn<int>("longestPath");     // nodes on the longest path
        QTest::addRow("chain") << 4 << QList<int>{0, 1, 1, 2, 2, 3} << 4;
        QTest::addRow("diamond with skip") << 6 << QList<int>{0, 1, 0, 2, 1, 3, 2, 3, 3, 4, 0, 4, 4, 5} << 5;
        // A residual block: the shortcut 1->5 spans four layers; 6 is a late source (a Constant) feeding 5.
        QTest::addRow("residual") << 8 << QList<int>{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 1, 5, 6, 5, 5, 7} << 7;
        QTest::addRow("two sources two sinks") << 6 << QList<int>{0, 2, 1, 2, 2, 3, 2, 4, 3, 5} << 4;
        QTest::addRow("wide fan") << 10
                                  << QList<int>{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 1, 9, 8, 9}
                                  << 3;
        QTest::addRow("parallel edges") << 3 << QList<int>{0, 1, 0, 1, 1, 2, 0, 2} << 3;
        QTest::addRow("isolated nodes") << 3 << QList<int>{} << 1;
    }
    void handBuilt() {
        QFETCH(int, nodes);
        QFETCH(QList<int>, edgeList);
        QFETCH(int, longestPath);
        std::vector<std::pair<int, int>> edges;
        for (qsizetype i = 0; i + 1 < edgeList.size(); i += 2)
            edges.push_back({edgeList[i], edgeList[i + 1]});
        Input in = uniform(nodes, edges);
        Result r = layeredLayout(in);
        QCOMPARE(r.stats.layers, longestPath);
        QCOMPARE(*std::max_element(r.layerOf.begin(), r.layerOf.end()) + 1, longestPath);
        QCOMPARE(overlaps(r.nodes), 0);
        QCOMPARE(checkEdges(in, r), QString());
        for (bool rev : r.reversed)
            QVERIFY(!rev);
        // Boxes keep their sizes and sit inside the reported extent.
        for (const Rect& b : r.nodes) {
            QCOMPARE(b.w, 100.0);
            QVERIFY(b.x >= -1e-9 && b.right() <= r.width + 1e-9 && b.bottom() <= r.height + 1e-9);
        }
    }

    void residualMainChainIsStraight() {
        // 0 -> 1 -> 2 -> 3 -> 4(Add) with shortcut 0 -> 4, repeated: the real chain shares one x.
        std::vector<std::pair<int, int>> edges;
        const int blocks = 6;
        for (int b = 0; b < blocks; ++b) {
            int s = b * 4;
            for (int i = 0; i < 4; ++i)
                edges.push_back({s + i, s + i + 1});
            edges.push_back({s, s + 4});
        }
        Input in = uniform(blocks * 4 + 1, edges);
        Result r = layeredLayout(in);
        for (const Rect& b : r.nodes)
            QCOMPARE(b.cx(), r.nodes[0].cx());
        QCOMPARE(geometricCrossings(r), int64_t(0));
        // The shortcut runs beside the chain, not through its boxes.
        const auto& skip = r.edges[4];
        QVERIFY(skip.size() > 2);
        QVERIFY(std::abs(skip[1].x - r.nodes[0].cx()) >= 50);
    }

    void cyclesAreBroken() {
        Input in = uniform(4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 3}});
        Result r = layeredLayout(in);
        QCOMPARE(overlaps(r.nodes), 0);
        QCOMPARE(int(std::count(r.reversed.begin(), r.reversed.end(), true)), 1);
        QVERIFY(r.edges[4].empty()); // self loop
        QCOMPARE(checkEdges(in, r), QString());
    }

    void emptyGraph() {
        Result r = layeredLayout(Input{});
        QVERIFY(r.nodes.empty());
        QCOMPARE(r.width, 0.0);
    }

    void samples_data() {
        QTest::addColumn<QString>("file");
        QTest::addRow("resnet152") << QStringLiteral("resnet152.onnx");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n.onnx");
        QTest::addRow("mobilenet_v2") << QStringLiteral("mobilenet_v2.onnx");
    }
    void samples() {
        QFETCH(QString, file);
        bpu::Graph g = loadSample(file.toUtf8().constData());
        GraphLayoutInput gi = buildGraphLayoutInput(g);
        QCOMPARE(gi.input.sizes.size(), g.nodes.size());
        Result r = layeredLayout(gi.input);
        QCOMPARE(overlaps(r.nodes), 0);
        QCOMPARE(checkEdges(gi.input, r), QString());

        // Crossing reduction against two baselines: the unswept DFS order and a shuffled order.
        Options none;
        none.maxSweeps = 0;
        Result dfs = layeredLayout(gi.input, none);
        Options shuffledOnly = none;
        shuffledOnly.initialOrder = InitialOrder::Shuffled;
        Result shuffled = layeredLayout(gi.input, shuffledOnly);
        Options shuffledSwept;
        shuffledSwept.initialOrder = InitialOrder::Shuffled;
        Result swept = layeredLayout(gi.input, shuffledSwept);
        const int64_t after = geometricCrossings(r);
        const int64_t afterShuffled = geometricCrossings(swept);
        const int64_t beforeShuffled = geometricCrossings(shuffled);
        const int64_t beforeDfs = geometricCrossings(dfs);
        qInfo("%s: %zu boxes, %d layers, %d dummies; crossings dfs %lld -> %lld, shuffled %lld -> %lld",
              qPrintable(file), r.nodes.size(), r.stats.layers, r.stats.dummies, (long long)beforeDfs,
              (long long)after, (long long)beforeShuffled, (long long)afterShuffled);
        QVERIFY(after <= beforeDfs);
        QVERIFY2(afterShuffled < beforeShuffled, "sweeps must remove crossings from a shuffled order");
        QCOMPARE(afterShuffled, swept.stats.crossingsFinal);
        QCOMPARE(after, r.stats.crossingsFinal);
    }

    void resnetSpineIsStraight() {
        // The main chain of ResNet-152 (every residual Add and the Relu after it) runs down one vertical
        // line; shortcuts and downsample convs go beside it.
        bpu::Graph g = loadSample("resnet152.onnx");
        GraphLayoutInput gi = buildGraphLayoutInput(g);
        Result r = layeredLayout(gi.input);
        std::vector<double> xs;
        for (const auto& n : g.nodes)
            if (n.opType == "Add")
                xs.push_back(r.nodes[gi.boxOfNode[n.id.value]].cx());
        QCOMPARE(xs.size(), size_t(50));
        for (double x : xs)
            QCOMPARE(x, xs.front());
        int besideSpine = 0;
        for (size_t e = 0; e < gi.input.edges.size(); ++e) {
            const auto& pts = r.edges[e];
            if (pts.size() > 2 && g.node(gi.membersOfBox[gi.input.edges[e].second].front()).opType == "Add")
                besideSpine += std::abs(pts[1].x - xs.front()) > 1;
        }
        // Each Add's shortcut (identity, or from a downsample conv) runs beside the spine.
        QCOMPARE(besideSpine, 50);
    }

    void groupsCollapse() {
        bpu::Graph g = loadSample("yolov8n.onnx");
        // Each Conv with its Sigmoid and Mul (SiLU) becomes one box.
        std::vector<int> groupOf(g.nodes.size(), -1);
        int groups = 0;
        for (const auto& n : g.nodes) {
            if (n.opType != "Conv")
                continue;
            const auto& out = g.tensor(n.outputs[0]);
            std::vector<bpu::NodeId> members{n.id};
            for (bpu::NodeId c : out.consumers)
                if (g.node(c).opType == "Sigmoid" || g.node(c).opType == "Mul")
                    members.push_back(c);
            if (members.size() == 3) {
                for (bpu::NodeId m : members)
                    groupOf[m.value] = groups;
                ++groups;
            }
        }
        QVERIFY(groups > 40);
        GraphLayoutInput gi = buildGraphLayoutInput(g, groupOf);
        QCOMPARE(gi.input.sizes.size(), g.nodes.size() - 2 * size_t(groups));
        for (size_t v = 0; v < g.nodes.size(); ++v)
            QVERIFY(gi.boxOfNode[v] >= 0);
        Result r = layeredLayout(gi.input);
        QCOMPARE(overlaps(r.nodes), 0);
        QCOMPARE(checkEdges(gi.input, r), QString());
        for (int box = 0; box < int(gi.membersOfBox.size()); ++box)
            QCOMPARE(gi.groupOfBox[box] >= 0, gi.membersOfBox[box].size() == 3);
    }

    void synthetic10k() {
        bpu::Graph g = makeSyntheticGraph(10000);
        QVERIFY(g.nodes.size() >= 10000);
        GraphLayoutInput gi = buildGraphLayoutInput(g);
        QElapsedTimer t;
        t.start();
        Result r = layeredLayout(gi.input);
        qInfo("synthetic: %zu nodes, %zu edges, %d layers, %d dummies, crossings %lld -> %lld, %lld ms",
              r.nodes.size(), gi.input.edges.size(), r.stats.layers, r.stats.dummies,
              (long long)r.stats.crossingsInitial, (long long)r.stats.crossingsFinal, (long long)t.elapsed());
        QCOMPARE(overlaps(r.nodes), 0);
        QCOMPARE(checkEdges(gi.input, r), QString());
        QVERIFY(r.stats.crossingsFinal <= r.stats.crossingsInitial);
    }
};

QTEST_GUILESS_MAIN(TestLayout)
#include "tst_layout.moc"
