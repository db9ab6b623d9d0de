// SPDX-License-Identifier: MIT
// Graph view, offscreen: items per node, colours per colouring, search, selection without echo, groups,
// edge marks, newest layout wins.
#include "TestPaths.h"
#include "core/model/ModelImporter.h"
#include "ui/graph/EdgeItem.h"
#include "ui/graph/GraphNavigation.h"
#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphSearchBar.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/LegendWidget.h"
#include "ui/graph/NodeColoring.h"
#include "ui/graph/NodeItem.h"

#include <QSignalSpy>
#include <QtTest>

#include <memory>
#include <set>

using namespace bpu;
using namespace bpu::ui;

namespace {

std::shared_ptr<const Graph> loadSample(const char* name) {
    return std::make_shared<const Graph>(ModelImporter::load(bpu::test::samplesDir() + "/" + name));
}

/// Each Conv with the Sigmoid and Mul of its SiLU as one group.
std::vector<int> siluGroups(const Graph& g, int* count) {
    std::vector<int> groupOf(g.nodes.size(), -1);
    int groups = 0;
    for (const auto& n : g.nodes) {
        if (n.opType != "Conv")
            continue;
        std::vector<NodeId> members{n.id};
        for (NodeId c : g.tensor(n.outputs[0]).consumers)
            if (g.node(c).opType == "Sigmoid" || g.node(c).opType == "Mul")
                members.push_back(c);
        if (members.size() != 3)
            continue;
        for (NodeId m : members)
            groupOf[m.value] = groups;
        ++groups;
    }
    *count = groups;
    return groupOf;
}

bool waitForLayout(GraphView& view) {
    QSignalSpy ready(&view, &GraphView::layoutReady);
    return ready.wait(20000) && !view.isLayoutPending();
}

} // namespace

class TestGraphView : public QObject {
    Q_OBJECT
    std::unique_ptr<GraphView> view_;
    std::shared_ptr<const Graph> yolo_;

    /// Centres `id` at 1:1 and returns its box centre in viewport coordinates.
    QPoint onScreen(NodeId id) {
        view_->zoomToNode(id);
        NodeItem* item = view_->graphScene()->itemForNode(id);
        return view_->mapFromScene(item->sceneBoundingRect().center());
    }

private slots:
    void initTestCase() {
        yolo_ = loadSample("yolov8n.onnx");
        view_ = std::make_unique<GraphView>();
        view_->resize(1200, 800);
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        view_->setModel(yolo_);
        QVERIFY(view_->isLayoutPending());
        QVERIFY(waitForLayout(*view_));
    }

    void oneItemPerNode() {
        GraphScene* scene = view_->graphScene();
        QCOMPARE(scene->nodeItems().size(), yolo_->nodes.size());
        int nodeItems = 0, edgeItems = 0;
        for (QGraphicsItem* item : scene->items()) {
            nodeItems += item->type() == NodeItem::Type;
            edgeItems += item->type() == EdgeItem::Type;
        }
        QCOMPARE(size_t(nodeItems), yolo_->nodes.size());
        QVERIFY(edgeItems > nodeItems); // YOLO has skips and SiLU diamonds
        std::set<NodeItem*> distinct;
        for (const auto& n : yolo_->nodes) {
            NodeItem* item = scene->itemForNode(n.id);
            QVERIFY(item);
            QCOMPARE(item->data().members.size(), size_t(1));
            QCOMPARE(item->data().members.front(), n.id);
            QCOMPARE(item->data().title, QString::fromStdString(n.opType));
            distinct.insert(item);
        }
        QCOMPARE(distinct.size(), yolo_->nodes.size());
        QVERIFY(scene->sceneRect().contains(scene->itemsBoundingRect()));
    }

    void colorsFollowColoring() {
        GraphScene* scene = view_->graphScene();
        OpCategoryColoring byOp(*yolo_);
        for (const auto& n : yolo_->nodes)
            QCOMPARE(scene->itemForNode(n.id)->fill(), byOp.color(n.id));
        QCOMPARE(view_->legend()->title(), QStringLiteral("Op category"));
        QCOMPARE(scene->itemForNode(yolo_->findNode("/model.0/conv/Conv"))->fill(), palette::categorical(0));

        // A placement-like category vector, then a heat vector.
        std::vector<int> cat(yolo_->nodes.size());
        for (size_t i = 0; i < cat.size(); ++i)
            cat[i] = i % 7 == 0 ? -1 : int(i % 3);
        auto placement = std::make_shared<CategoryColoring>(
            cat, QStringList{QStringLiteral("BPU"), QStringLiteral("CPU"), QStringLiteral("folded")},
            QStringLiteral("Placement"));
        view_->setColoring(placement);
        for (const auto& n : yolo_->nodes) {
            const int c = cat[n.id.value];
            QCOMPARE(scene->itemForNode(n.id)->fill(), c < 0 ? palette::unknown() : palette::categorical(c));
        }
        QCOMPARE(view_->legend()->title(), QStringLiteral("Placement"));
        QCOMPARE(view_->legend()->rows().size(), 3);

        std::vector<double> heat(yolo_->nodes.size());
        for (size_t i = 0; i < heat.size(); ++i)
            heat[i] = i % 5 == 0 ? std::nan("") : double(i) / heat.size();
        view_->setColoring(std::make_shared<HeatColoring>(heat, QStringLiteral("Padding waste")));
        for (const auto& n : yolo_->nodes) {
            const double v = heat[n.id.value];
            QCOMPARE(scene->itemForNode(n.id)->fill(), std::isnan(v) ? palette::unknown() : palette::heat(v));
        }
        QVERIFY(palette::heat(0) != palette::heat(1));
        view_->setColoring(nullptr);
        QCOMPARE(scene->itemForNode(yolo_->findNode("/model.0/conv/Conv"))->fill(), palette::categorical(0));
    }

    void searchFindsEveryConv() {
        const int count = view_->search(QStringLiteral("Conv"));
        std::set<NodeId> found(view_->matches().begin(), view_->matches().end());
        QCOMPARE(size_t(count), found.size());
        int convs = 0;
        for (const auto& n : yolo_->nodes) {
            if (n.opType == "Conv") {
                ++convs;
                QVERIFY2(found.count(n.id), n.name.c_str());
            }
            QCOMPARE(view_->graphScene()->itemForNode(n.id)->isMatched(), found.count(n.id) == 1);
        }
        QCOMPARE(convs, 63);
        // Case-insensitive, on op type or name.
        for (NodeId id : view_->matches()) {
            const QString op = QString::fromStdString(yolo_->node(id).opType);
            const QString name = QString::fromStdString(yolo_->node(id).name);
            QVERIFY(op.contains(QStringLiteral("conv"), Qt::CaseInsensitive) ||
                    name.contains(QStringLiteral("conv"), Qt::CaseInsensitive));
        }
        QCOMPARE(view_->search(QStringLiteral("concat")), 13);
        QCOMPARE(view_->search(QString()), 0);
        for (auto* item : view_->graphScene()->nodeItems())
            QVERIFY(!item->isMatched());
    }

    void selectionIsEmittedOnceAndNotEchoed() {
        QSignalSpy spy(view_.get(), &GraphView::nodeSelected);
        const NodeId target = yolo_->findNode("/model.2/Split");
        QVERIFY(target.valid());
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {}, onScreen(target));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).value<NodeId>(), target);
        QCOMPARE(view_->selectedNode(), target);
        QVERIFY(view_->graphScene()->itemForNode(target)->isCurrent());
        // Clicking it again changes nothing and says nothing.
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {}, onScreen(target));
        QCOMPARE(spy.count(), 1);

        // Programmatic selection (from the selection hub): selects and centres, no echo.
        const NodeId other = yolo_->findNode("/model.21/Concat");
        QVERIFY(other.valid());
        view_->selectNode(other);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(view_->selectedNode(), other);
        QVERIFY(view_->graphScene()->itemForNode(other)->isCurrent());
        QVERIFY(!view_->graphScene()->itemForNode(target)->isCurrent());
        // Centred as far as the scene edges allow: in view, whole.
        view_->setZoom(1.0);
        view_->centerOn(view_->sceneRect().topLeft());
        view_->selectNode(other);
        const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(view_->graphScene()->itemForNode(other)->data().rect));
        QCOMPARE(spy.count(), 1);

        // Stepping through search matches is a user action: one emission per step.
        view_->search(QStringLiteral("Resize"));
        QCOMPARE(view_->matches().size(), size_t(2));
        view_->findNext();
        QCOMPARE(spy.count(), 2);
        view_->findNext();
        QCOMPARE(spy.count(), 3);
        QCOMPARE(spy.at(2).at(0).value<NodeId>(), view_->matches()[1]);
        view_->search(QString());

        // A click on the background clears the selection (once).
        view_->setZoom(1.0);
        view_->centerOn(view_->sceneRect().topLeft());
        QTest::mouseClick(view_->viewport(), Qt::LeftButton, {}, QPoint(5, 5));
        QCOMPARE(spy.count(), 4);
        QVERIFY(!spy.at(3).at(0).value<NodeId>().valid());
    }

    // Alt+Down to a consumer, Alt+Up back to the producer, Alt+Right / Alt+Left among the producer's
    // consumers (a SiLU's Sigmoid and Mul), each one user selection; the find bar's count follows F3.
    void altArrowsWalkTheEdges() {
        const NodeId conv = yolo_->findNode("/model.0/conv/Conv");
        const NodeId sigmoid = yolo_->findNode("/model.0/act/Sigmoid");
        const NodeId mul = yolo_->findNode("/model.0/act/Mul");
        QVERIFY(conv.valid() && sigmoid.valid() && mul.valid());
        QCOMPARE(graphNeighbour(*yolo_, conv, NavStep::Up), NodeId{}); // fed by the model input only
        const NodeId down = graphNeighbour(*yolo_, conv, NavStep::Down);
        QVERIFY(down == sigmoid || down == mul);
        QCOMPARE(graphNeighbour(*yolo_, sigmoid, NavStep::Up), conv);
        QCOMPARE(graphNeighbour(*yolo_, sigmoid, NavStep::Next), mul);
        QCOMPARE(graphNeighbour(*yolo_, mul, NavStep::Next), sigmoid); // wraps
        QCOMPARE(graphNeighbour(*yolo_, mul, NavStep::Previous), sigmoid);

        view_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(view_.get()));
        view_->setFocus();
        view_->selectNode(conv);
        QSignalSpy spy(view_.get(), &GraphView::nodeSelected);
        QTest::keyClick(view_.get(), Qt::Key_Down, Qt::AltModifier);
        QCOMPARE(view_->selectedNode(), down);
        QTest::keyClick(view_.get(), Qt::Key_Right, Qt::AltModifier);
        QVERIFY(view_->selectedNode() != down);
        QTest::keyClick(view_.get(), Qt::Key_Up, Qt::AltModifier);
        QCOMPARE(view_->selectedNode(), conv);
        QTest::keyClick(view_.get(), Qt::Key_Up, Qt::AltModifier); // nowhere to go: stays, says nothing
        QCOMPARE(view_->selectedNode(), conv);
        QCOMPARE(spy.count(), 3);
        // The stepped-to node is in view.
        const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
        QVERIFY(visible.intersects(view_->graphScene()->itemForNode(conv)->sceneBoundingRect()));
    }

    void markedEdges() {
        const NodeId split = yolo_->findNode("/model.2/Split");
        const TensorId t = yolo_->node(split).inputs[0];
        view_->setMarkedTensors({t});
        int marked = 0;
        for (auto* e : view_->graphScene()->edgeItems()) {
            const auto& ts = e->data().tensors;
            const bool carries = std::find(ts.begin(), ts.end(), t) != ts.end();
            QCOMPARE(e->isMarked(), carries);
            marked += carries;
        }
        QCOMPARE(marked, 1);
        view_->setMarkedTensors({});
    }

    void groupsCollapseAndExpand() {
        int groups = 0;
        const std::vector<int> groupOf = siluGroups(*yolo_, &groups);
        QVERIFY(groups > 40);
        view_->setModel(yolo_, groupOf);
        QVERIFY(waitForLayout(*view_));
        GraphScene* scene = view_->graphScene();
        QCOMPARE(scene->nodeItems().size(), yolo_->nodes.size() - 2 * size_t(groups));
        OpCategoryColoring byOp(*yolo_);
        int groupBoxes = 0;
        for (auto* item : scene->nodeItems()) {
            if (!item->isGroup())
                continue;
            ++groupBoxes;
            QCOMPARE(item->data().members.size(), size_t(3));
            QCOMPARE(item->fill(), byOp.groupColor(item->data().members));
            QCOMPARE(item->data().title, QStringLiteral("Conv+Sigmoid+Mul"));
        }
        QCOMPARE(groupBoxes, groups);

        // Expanding group 0 adds its members back (+2 boxes) and a frame; collapsing restores.
        view_->setGroupExpanded(0, true);
        QVERIFY(waitForLayout(*view_));
        QCOMPARE(scene->nodeItems().size(), yolo_->nodes.size() - 2 * size_t(groups - 1));
        int frames = 0;
        for (QGraphicsItem* item : scene->items())
            frames += item->type() == GroupFrameItem::Type;
        QCOMPARE(frames, 1);
        view_->setGroupExpanded(0, false);
        QVERIFY(waitForLayout(*view_));
        QCOMPARE(scene->nodeItems().size(), yolo_->nodes.size() - 2 * size_t(groups));
    }

    void newestLayoutWins() {
        auto resnet = loadSample("resnet152.onnx");
        QSignalSpy ready(view_.get(), &GraphView::layoutReady);
        view_->setModel(resnet);
        view_->setModel(yolo_); // supersedes the ResNet layout still running
        QTRY_VERIFY_WITH_TIMEOUT(!view_->isLayoutPending(), 20000);
        QCOMPARE(ready.count(), 1);
        QCOMPARE(view_->graphScene()->nodeItems().size(), yolo_->nodes.size());
        QCOMPARE(view_->graph(), yolo_.get());
    }
};

QTEST_MAIN(TestGraphView)
#include "tst_graphview.moc"
