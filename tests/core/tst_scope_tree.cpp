// SPDX-License-Identifier: MIT
// Name-scope tree (issue 16): scopes parsed from exporter names, the default expansion of a big model,
// what search/selection reveal, and per-scope aggregates (the figures a collapsed scope box shows).
#include "OnnxFixtures.h"
#include "core/analysis/AnalysisResult.h"
#include "core/analysis/Analyzer.h"
#include "core/cost/CostModel.h"
#include "core/cost/ScopeFigures.h"
#include "core/layout/ScopeTree.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QtTest>

#include <cmath>

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

onnx::NodeProto& conv1x1(fixtures::ModelBuilder& b, const std::string& name, const std::string& in,
                         const std::string& w, const std::string& out) {
    auto& n = b.node("Conv", {in, w}, {out}, name);
    fixtures::setInts(n, "kernel_shape", {1, 1});
    return n;
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

    void figuresEqualHandSums() {
        // A generated model run through the real analysis and cost model: odd channel counts (padding
        // waste), a TopK (a CPU operator) inside /block0, nested scopes and an unscoped node.
        fixtures::ModelBuilder b;
        b.input("x", {1, 3, 32, 32});
        b.weight("w0", {33, 3, 1, 1});
        b.weight("w1", {17, 33, 1, 1});
        b.weight("w2", {24, 17, 1, 1});
        b.ints("k", {4});
        conv1x1(b, "/stem/conv/Conv", "x", "w0", "s0");
        b.node("Relu", {"s0"}, {"s1"}, "/stem/Relu");
        conv1x1(b, "/block0/conv/Conv", "s1", "w1", "b0");
        b.node("TopK", {"b0", "k"}, {"v", "idx"}, "/block0/TopK");
        b.node("Relu", {"v"}, {"b1"}, "/block0/Relu");
        conv1x1(b, "/block1/conv/Conv", "b1", "w2", "c0");
        b.node("Sigmoid", {"c0"}, {"c1"}, "/block1/Sigmoid");
        b.node("Relu", {"c1"}, {"y"}, "Relu_out");
        b.output("y");
        const Graph g = ModelImporter::load(b.save("scope_figures.onnx"));
        const TargetProfile target = loadTargetProfile("s100");
        const AnalysisOptions options;
        const AnalysisResult r = Analyzer::analyze(g, target, options);
        const CostEstimate cost = CostModel::estimate(g, r, target, options.deploy);
        const ScopeTree t = ScopeTree::build(g);
        const auto figures = scopeFigures(t, nodeFigures(g, r, cost));
        QCOMPARE(figures.size(), t.scopes().size());

        // Each scope against sums taken straight from the analysis and the estimate, by name prefix.
        int64_t anyWaste = 0;
        for (size_t s = 0; s < t.scopes().size(); ++s) {
            const std::string prefix = t.scope(int(s)).path + "/";
            double us = 0, share = 0, hottestUs = -1;
            size_t nodes = 0, cpu = 0;
            int64_t waste = 0, padded = 0;
            for (const Node& n : g.nodes) {
                if (s != 0 && n.name.compare(0, prefix.size(), prefix) != 0)
                    continue;
                ++nodes;
                us += cost.nodes[n.id.value].latencyUs;
                share += cost.nodes[n.id.value].share;
                hottestUs = std::max(hottestUs, cost.nodes[n.id.value].latencyUs);
                cpu += r.nodes[n.id.value].placement == Placement::CPU;
                for (TensorId o : n.outputs)
                    if (o.valid() && r.tensors[o.value].padded.applies) {
                        waste += r.tensors[o.value].padded.wasteBytes;
                        padded += r.tensors[o.value].paddedBytes;
                    }
            }
            const ScopeFigures& f = figures[s];
            QVERIFY2(std::fabs(f.latencyUs - us) < 1e-9 * std::max(1.0, us), prefix.c_str());
            QVERIFY2(std::fabs(f.share - share) < 1e-12, prefix.c_str());
            QCOMPARE(f.nodes, nodes);
            QCOMPARE(f.nodes, t.scope(int(s)).nodeCount);
            QCOMPARE(f.cpuNodes, cpu);
            QCOMPARE(f.wasteBytes, waste);
            QCOMPARE(f.paddedBytes, padded);
            QCOMPARE(f.hottestUs, hottestUs);
            QCOMPARE(cost.nodes[f.hottest.value].latencyUs, hottestUs);
            anyWaste += waste;
        }
        // The figures must be about something: the model has a CPU node, padding waste and a latency.
        QVERIFY(anyWaste > 0);
        QVERIFY(figures[0].latencyUs > 0);
        const int block0 = t.scopeOf(g.findNode("/block0/Relu"));
        QCOMPARE(figures[size_t(block0)].cpuNodes, size_t(1));
        QCOMPARE(figures[size_t(block0)].worstPlacement(), Placement::CPU);
        const int block1 = t.scopeOf(g.findNode("/block1/Sigmoid"));
        QCOMPARE(figures[size_t(block1)].worstPlacement(), Placement::BPU);
        // The whole model: its nodes' latencies plus the rows (passes, transitions, overhead) are the total.
        double rows = 0;
        for (const CostRow& row : cost.rows)
            rows += row.us;
        QVERIFY(std::fabs(figures[0].latencyUs + rows - cost.totalUs) < 1e-6 * cost.totalUs);
    }
};

QTEST_GUILESS_MAIN(TestScopeTree)
#include "tst_scope_tree.moc"
