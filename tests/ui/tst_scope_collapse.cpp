// SPDX-License-Identifier: MIT
// Name-scope collapsing in the graph view (issue 16): a big model opens as its scopes, double-click opens
// one, selecting a node inside a collapsed scope reveals it; small models are drawn node by node.
#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/NodeItem.h"
#include "ui/graph/ScopeCollapse.h"

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
    return ready.wait(60000) && !view.isLayoutPending();
}

NodeItem* boxOfGroup(GraphView& view, int group) {
    for (NodeItem* item : view.graphScene()->nodeItems())
        if (item->data().group == group)
            return item;
    return nullptr;
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
