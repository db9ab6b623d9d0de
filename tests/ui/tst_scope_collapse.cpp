// SPDX-License-Identifier: MIT
// Name-scope collapsing in the graph view (issue 16): a big model opens as its scopes, double-click opens
// one, selecting a node inside a collapsed scope reveals it, an opened scope collapses back into its box;
// scope boxes show their summed figures; the first view frames the top hotspot; small models are drawn
// node by node.
#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/NodeItem.h"
#include "ui/graph/ScopeCollapse.h"

#include <QAction>
#include <QSignalSpy>
#include <QtTest>

#include <memory>

using namespace bpu;
using namespace bpu::ui;

namespace {

/// A chain of `blocks` x `perBlock` Relu nodes named /block<b>/op<k>/Relu.
std::shared_ptr<const Graph> scopedChain(int blocks, int perBlock) {
    auto g = std::make_shared<Graph>();
    TensorId prev = g->internTensor("x");
    for (int b = 0; b < blocks; ++b)
        for (int k = 0; k < perBlock; ++k) {
            Node n;
            n.name = "/block" + std::to_string(b) + "/op" + std::to_string(k) + "/Relu";
            n.opType = "Relu";
            n.inputs = {prev};
            prev = g->internTensor(n.name + ":0");
            n.outputs = {prev};
            g->addNode(std::move(n));
        }
    g->link();
    return g;
}

bool waitForLayout(GraphView& view) {
    QSignalSpy ready(&view, &GraphView::layoutReady);
    if (!ready.wait(60000))
        return false;
    // Two requests in a row (a reveal, then a collapse) run side by side: the newest can land first while
    // the superseded one is still finishing, to be dropped.
    return QTest::qWaitFor([&view] { return !view.isLayoutPending(); }, 60000);
}

NodeItem* boxOfGroup(GraphView& view, int group) {
    for (NodeItem* item : view.graphScene()->nodeItems())
        if (item->data().group == group)
            return item;
    return nullptr;
}

/// Node n costs n + 1 us; every seventh runs on the CPU; every node wastes 10 of its 40 padded bytes.
std::vector<NodeFigures> figuresOf(const Graph& g) {
    std::vector<NodeFigures> out(g.nodes.size());
    double total = 0;
    for (size_t n = 0; n < out.size(); ++n)
        total += double(n + 1);
    for (size_t n = 0; n < out.size(); ++n) {
        out[n].latencyUs = double(n + 1);
        out[n].share = double(n + 1) / total;
        out[n].placement = n % 7 == 0 ? Placement::CPU : Placement::BPU;
        out[n].wasteBytes = 10;
        out[n].paddedBytes = 40;
    }
    return out;
}

/// True if the box showing `id` lies wholly inside the view.
bool onScreen(GraphView& view, NodeId id) {
    const NodeItem* item = view.graphScene()->itemForNode(id);
    const QRectF box = item->mapRectToScene(QRectF(QPointF(0, 0), item->data().rect.size()));
    return view.mapToScene(view.viewport()->rect()).boundingRect().contains(box);
}

} // namespace

class TestScopeCollapse : public QObject {
    Q_OBJECT
private slots:
    void bigModelOpensAsScopes() {
        GraphView view;
        view.resize(800, 600);
        const auto g = scopedChain(420, 4); // 1680 nodes, above ScopeCollapse::kMinNodes
        view.setModel(g);
        QVERIFY(waitForLayout(view));
        // 420 blocks are more than the default budget of boxes: one box per block, none opened.
        QCOMPARE(view.graphScene()->nodeItems().size(), size_t(420));
        NodeItem* first = view.graphScene()->nodeItems().front();
        QVERIFY(ScopeCollapse::isScopeGroup(first->data().group));
        QCOMPARE(first->data().title, QStringLiteral("/block0"));
        QCOMPARE(first->data().name, QStringLiteral("Relu")); // the op types inside stay on the box
        QCOMPARE(first->data().members.size(), size_t(4));

        // Double-click semantics: opening /block0 shows its 4 single-node scopes as nodes.
        view.setGroupExpanded(first->data().group, true);
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.graphScene()->nodeItems().size(), size_t(419 + 4));

        // Selecting a node inside a collapsed scope opens the path to it.
        const NodeId deep = g->findNode("/block300/op2/Relu");
        const int block300 = view.graphScene()->itemForNode(deep)->data().group;
        QVERIFY(ScopeCollapse::isScopeGroup(block300));
        view.selectNode(deep);
        QVERIFY(waitForLayout(view));
        QVERIFY(!boxOfGroup(view, block300));
        QCOMPARE(view.graphScene()->itemForNode(deep)->data().members.size(), size_t(1));
        // ... and shows it: the view is where the node landed, not where its closed scope's box was (a
        // finding's node far down the model was revealed off screen).
        QVERIFY(onScreen(view, deep));

        // A search match inside a closed scope far from the view opens it and shows it, the same way.
        QCOMPARE(view.search(QStringLiteral("/block40/op3/")), 1);
        const NodeId match = g->findNode("/block40/op3/Relu");
        QVERIFY(ScopeCollapse::isScopeGroup(view.graphScene()->itemForNode(match)->data().group));
        QCOMPARE(view.findNext(), match);
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.graphScene()->itemForNode(match)->data().members.size(), size_t(1));
        QVERIFY(onScreen(view, match));
    }

    void collapseBackRestoresTheBox() {
        GraphView view;
        view.resize(800, 600);
        const auto g = scopedChain(420, 4);
        view.setModel(g);
        QVERIFY(waitForLayout(view));
        const NodeId inside = g->findNode("/block7/op1/Relu");
        NodeItem* box = view.graphScene()->itemForNode(inside);
        const int group = box->data().group;
        const auto members = box->data().members;
        QCOMPARE(members.size(), size_t(4));
        // Nothing to collapse while it is a box.
        QVERIFY(!view.collapseScopeOf(inside));

        view.setGroupExpanded(group, true);
        QVERIFY(waitForLayout(view));
        QVERIFY(!boxOfGroup(view, group));
        // Backspace on a node inside: its scope is one box again, with the same nodes.
        view.selectNode(inside);
        QVERIFY(view.collapseScopeOf(inside));
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.graphScene()->nodeItems().size(), size_t(420));
        NodeItem* again = boxOfGroup(view, group);
        QVERIFY(again);
        QCOMPARE(again->data().members, members);
        QCOMPARE(view.graphScene()->itemForNode(inside), again);
        QCOMPARE(again->data().title, QStringLiteral("/block7"));
        // The action (Backspace) does it too, from the selected node; opening and collapsing by group id
        // (double-click, context menu) round-trips as well.
        view.setGroupExpanded(group, true);
        QVERIFY(waitForLayout(view));
        QVERIFY(!boxOfGroup(view, group));
        view.collapseScopeAction()->trigger();
        QVERIFY(waitForLayout(view));
        QVERIFY(boxOfGroup(view, group));
        view.setGroupExpanded(group, true);
        QVERIFY(waitForLayout(view));
        view.setGroupExpanded(group, false);
        QVERIFY(waitForLayout(view));
        QCOMPARE(boxOfGroup(view, group)->data().members, members);
        // The root is never collapsed: a node outside every closed scope has nothing above it to close.
        QVERIFY(!view.collapseScopeOf(NodeId{}));
    }

    void scopeBoxesShowSummedFigures() {
        GraphView view;
        view.resize(800, 600);
        const auto g = scopedChain(420, 4);
        view.setModel(g);
        view.setNodeFigures(figuresOf(*g)); // as a snapshot lands: before the layout
        QVERIFY(waitForLayout(view));
        const auto figures = figuresOf(*g);
        for (const char* name : {"/block0/op0/Relu", "/block7/op0/Relu", "/block419/op3/Relu"}) {
            NodeItem* box = view.graphScene()->itemForNode(g->findNode(name));
            QVERIFY(ScopeCollapse::isScopeGroup(box->data().group));
            // Summed here, independently of the core's scope tree: the box's members.
            ScopeFigures expect;
            for (NodeId m : box->data().members) {
                expect.latencyUs += figures[m.value].latencyUs;
                expect.share += figures[m.value].share;
                expect.cpuNodes += figures[m.value].placement == Placement::CPU;
                expect.bpuNodes += figures[m.value].placement == Placement::BPU;
                expect.wasteBytes += figures[m.value].wasteBytes;
                expect.paddedBytes += figures[m.value].paddedBytes;
            }
            QCOMPARE(box->note(), ScopeCollapse::note(expect));
            QVERIFY(box->note().contains(formatLatencyUs(expect.latencyUs)));
            QVERIFY(box->note().contains(QStringLiteral("waste 25%")));
        }
        // /block0 = nodes 0..3: 1 + 2 + 3 + 4 us, node 0 on the CPU.
        QCOMPARE(view.graphScene()->itemForNode(g->findNode("/block0/op0/Relu"))->note().left(12),
                 QStringLiteral("10.0 us  <0."));
        QVERIFY(view.graphScene()
                    ->itemForNode(g->findNode("/block0/op0/Relu"))
                    ->note()
                    .contains(QStringLiteral("1 CPU")));
        // A new state (an edit) re-sums without a layout.
        auto slower = figuresOf(*g);
        slower[0].latencyUs = 5000;
        view.setNodeFigures(slower);
        QVERIFY(!view.isLayoutPending());
        QVERIFY(view.graphScene()
                    ->itemForNode(g->findNode("/block0/op0/Relu"))
                    ->note()
                    .startsWith(QStringLiteral("5.01 ms")));
    }

    void initialViewShowsTheModelsStart() {
        GraphView view;
        view.resize(800, 600);
        view.show();
        const auto g = scopedChain(420, 4);
        view.setModel(g);
        // A hot node deep in the chain does not pull the first view there (issue 63: it landed mid-graph with
        // no input in sight); the chain's first op, the input's consumer, is on screen at a legible zoom.
        auto figures = figuresOf(*g);
        const NodeId hot = g->findNode("/block300/op2/Relu");
        figures[hot.value].latencyUs = 1e6;
        view.setNodeFigures(figures);
        QVERIFY(waitForLayout(view));
        QVERIFY(!onScreen(view, hot));
        const NodeId first = g->findNode("/block0/op0/Relu");
        QVERIFY(onScreen(view, first));
        QVERIFY(view.zoom() >= NodeItem::kTitleLod);

        // A model that fits legibly is shown whole.
        GraphView small;
        small.resize(800, 700);
        small.show();
        const auto h = scopedChain(1, 3);
        small.setModel(h);
        QVERIFY(waitForLayout(small));
        for (const Node& n : h->nodes)
            QVERIFY(onScreen(small, n.id));
        QVERIFY(small.zoom() >= NodeItem::kTitleLod);
    }

    void smallModelDrawnNodeByNode() {
        GraphView view;
        const auto g = scopedChain(10, 10);
        view.setModel(g);
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.graphScene()->nodeItems().size(), g->nodes.size());
    }
};

QTEST_MAIN(TestScopeCollapse)
#include "tst_scope_collapse.moc"
