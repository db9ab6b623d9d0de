// SPDX-License-Identifier: MIT
// Name-scope tree (issue 16): scopes parsed from exporter names, the default expansion of a big model,
// what search/selection reveal, and per-scope aggregates.
#include "core/layout/ScopeTree.h"

#include <QtTest>

using namespace bpu;
using namespace bpu::layout;

namespace {

/// A chain of nodes with the given names, in order (each reads the previous one's output).
Graph chain(const std::vector<std::string>& names) {
    Graph g;
    TensorId prev = g.internTensor("x");
    for (const auto& name : names) {
        Node n;
        n.name = name;
        n.opType = "Relu";
        n.inputs = {prev};
        prev = g.internTensor(name + ":0");
        n.outputs = {prev};
        g.addNode(std::move(n));
    }
    g.link();
    return g;
}

} // namespace

class TestScopeTree : public QObject {
    Q_OBJECT
private slots:
    void components() {
        using V = std::vector<std::string_view>;
        QCOMPARE(scopeComponents("/layer1/layer1.0/conv1/Conv"), (V{"layer1", "layer1.0", "conv1"}));
        QCOMPARE(scopeComponents("/model.22/cv3/Conv"), (V{"model.22", "cv3"}));
        QCOMPARE(scopeComponents("/Conv"), V{});
        QCOMPARE(scopeComponents("Conv_12"), V{});
        QCOMPARE(scopeComponents("a/b/Conv"), V{}); // not an exporter scope: no leading '/'
        QCOMPARE(scopeComponents("//x//Conv"), V{"x"});
        QCOMPARE(scopeComponents(""), V{});
    }

    void tree() {
        const Graph g = chain({"/stem/Conv", "/layer1/layer1.0/conv1/Conv", "/layer1/layer1.0/Relu",
                               "/layer1/layer1.1/Relu", "/layer2/layer2.0/Relu", "/Flatten"});
        const ScopeTree t = ScopeTree::build(g);
        // root, stem, layer1, layer1.0, conv1, layer1.1, layer2, layer2.0
        QCOMPARE(t.scopes().size(), size_t(8));
        QCOMPARE(t.scope(0).nodeCount, size_t(6));
        QCOMPARE(t.scope(0).nodes.size(), size_t(1)); // /Flatten
        QCOMPARE(t.scope(0).children.size(), size_t(3));
        const int layer1 = t.scope(0).children[1];
        QCOMPARE(t.scope(layer1).path, std::string("/layer1"));
        QCOMPARE(t.scope(layer1).nodeCount, size_t(3));
        const int conv1 = t.scopeOf(g.findNode("/layer1/layer1.0/conv1/Conv"));
        QCOMPARE(t.scope(conv1).path, std::string("/layer1/layer1.0/conv1"));
        QVERIFY(t.isWithin(conv1, layer1));
        QVERIFY(!t.isWithin(layer1, conv1));

        // Everything collapsed: one box per top-level scope, the unscoped node on its own.
        std::vector<bool> expanded(t.scopes().size(), false);
        expanded[0] = true;
        QCOMPARE(t.visibleUnits(expanded), size_t(4));
        auto vis = t.visibleScopes(expanded);
        QCOMPARE(vis[g.findNode("/layer1/layer1.1/Relu").value], layer1);
        QCOMPARE(vis[g.findNode("/Flatten").value], -1);

        // Selecting a node deep inside opens its path, and only that.
        t.reveal(g.findNode("/layer1/layer1.0/conv1/Conv"), expanded);
        vis = t.visibleScopes(expanded);
        QCOMPARE(vis[g.findNode("/layer1/layer1.0/conv1/Conv").value], -1);
        QCOMPARE(vis[g.findNode("/layer1/layer1.0/Relu").value], -1);
        QCOMPARE(t.scope(vis[g.findNode("/layer1/layer1.1/Relu").value]).path,
                 std::string("/layer1/layer1.1"));
        QCOMPARE(t.scope(vis[g.findNode("/layer2/layer2.0/Relu").value]).path, std::string("/layer2"));
    }

    void defaultExpansionShowsTopLevelBlocks() {
        // /encoder/layers.N/...: the single /encoder wrapper opens, the layers stay boxes.
        std::vector<std::string> names;
        for (int l = 0; l < 12; ++l)
            for (int k = 0; k < 20; ++k)
                names.push_back("/encoder/layers." + std::to_string(l) + "/attn/Op_" + std::to_string(k));
        const Graph g = chain(names);
        const ScopeTree t = ScopeTree::build(g);
        const auto expanded = t.defaultExpansion(20);
        QCOMPARE(t.visibleUnits(expanded), size_t(12));
        const int encoder = t.scope(0).children[0];
        QVERIFY(expanded[size_t(encoder)]);
        QCOMPARE(t.scope(t.visibleScopes(expanded)[0]).path, std::string("/encoder/layers.0"));
        // Room for one more layer's 20 nodes: the first opens (with its single /attn scope), the rest not.
        const auto more = t.defaultExpansion(40);
        QCOMPARE(t.visibleUnits(more), size_t(11 + 20));
        QCOMPARE(t.visibleScopes(more)[0], -1);
        // With room for everything, everything opens.
        QCOMPARE(t.visibleUnits(t.defaultExpansion(10000)), g.nodes.size());
    }

    void aggregates() {
        const Graph g = chain({"/a/x/Relu", "/a/y/Relu", "/b/Relu", "/Relu"});
        const ScopeTree t = ScopeTree::build(g);
        std::vector<double> us(g.nodes.size());
        std::vector<int> rank(g.nodes.size());
        for (NodeId id : g.topoOrder) {
            us[id.value] = double(id.value + 1);
            rank[id.value] = id.value == 1 ? 2 : 0;
        }
        const auto sums = t.sum(us);
        const auto worst = t.maxRank(rank);
        const int a = t.scope(0).children[0];
        QCOMPARE(sums[0], 10.0);
        QCOMPARE(sums[size_t(a)], double(us[0] + us[1]));
        QCOMPARE(worst[size_t(a)], 2);
        QCOMPARE(worst[size_t(t.scope(0).children[1])], 0);
    }
};

QTEST_GUILESS_MAIN(TestScopeTree)
#include "tst_scope_tree.moc"
