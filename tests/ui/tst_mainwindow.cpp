// SPDX-License-Identifier: MIT
// The workbench, offscreen, on real samples: node colours per placement, a hotspot click selecting the node
// everywhere, an edit + undo restoring every number, a drag committing one undo step, a cancelled load and a
// bad file both leaving the open model as it was.
#include "WorkbenchFixture.h"
#include "WorkbenchNumbers.h"
#include "ui/graph/ScopeCollapse.h"

#include "core/analysis/AnalysisResult.h"
#include "core/edit/EditList.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/graph/GraphScene.h"
#include "ui/graph/LegendWidget.h"
#include "ui/graph/NodeItem.h"
#include "ui/inspector/InspectorPanel.h"
#include "ui/inspector/ShapeEditor.h"
#include "ui/session/SelectionHub.h"
#include "ui/whatif/WhatIfActions.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>

#include <map>
#include <memory>
#include <set>

using namespace bpu;
using namespace bpu::ui;

namespace {

// The placement legend's colours (Okabe-Ito; the README and the legend name them): BPU blue, CPU vermillion,
// folded light grey, an op the operator table does not know yellow.
const QColor kBpu(0x00, 0x72, 0xb2), kCpu(0xd5, 0x5e, 0x00), kFolded(0xc8, 0xc8, 0xc8),
    kUnknown(0xf0, 0xe4, 0x42);

QColor expectedPlacementColor(const NodeAnalysis& a) {
    if (a.opClass == bpu::OpClass::Unknown && !a.placementOverridden)
        return kUnknown;
    switch (a.placement) {
    case Placement::BPU:
        return kBpu;
    case Placement::CPU:
        return kCpu;
    case Placement::Folded:
        return kFolded;
    }
    return {};
}

/// Output channels of a conv in the snapshot (its weight's first dim).
int64_t outChannels(const Snapshot& s, NodeId conv) {
    const Node& n = s.graph->node(conv);
    return s.graph->tensor(n.inputs[1]).shape.dims[0];
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    std::unique_ptr<QAbstractItemModelTester> modelTester_, proxyTester_;
    QStringList loadedNumbers_;

    void reload(const char* sample) {
        QVERIFY(fixture::openAndSettle(*w_, fixture::sample(sample)));
        QVERIFY(w_->snapshot()->modelPath.endsWith(QLatin1String(sample)));
    }

private slots:
    void init() {
        if (w_ && w_->lastMessage())
            w_->lastMessage()->close(); // each test judges only the boxes it causes
        QTRY_VERIFY(!w_ || !w_->lastMessage());
    }

    void initTestCase() {
        fixture::isolateSettings();
        w_ = std::make_unique<MainWindow>();
        // Every reset and change of the hotspot table below is checked for model consistency.
        modelTester_ = std::make_unique<QAbstractItemModelTester>(
            w_->hotspots()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxyTester_ = std::make_unique<QAbstractItemModelTester>(
            w_->hotspots()->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        reload("yolov8n.onnx");
        loadedNumbers_ = fixture::numbers(*w_);
    }

    void nodeColorsFollowPlacement_data() {
        QTest::addColumn<QString>("sample");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n.onnx");
        // Detection heads with ops the BPU does not run: CPU nodes and CPU segments.
        QTest::addRow("fasterrcnn") << QStringLiteral("fasterrcnn_mobilenet_v3_large_320_fpn.onnx");
    }

    void nodeColorsFollowPlacement() {
        QFETCH(QString, sample);
        reload(sample.toLatin1().constData());
        w_->setColorMode(ColorMode::Placement);
        const auto s = w_->snapshot();
        GraphScene* scene = w_->graphView()->graphScene();
        std::map<QRgb, int> seen;
        int groups = 0, fusedGroups = 0;
        for (const auto& g : s->analysis->groups)
            fusedGroups += g.fused && g.nodes.size() > 1;
        for (NodeItem* item : scene->nodeItems()) {
            const auto& members = item->data().members;
            QVERIFY(!members.empty());
            if (members.size() == 1) {
                const NodeId id = members.front();
                QCOMPARE(item->fill(), expectedPlacementColor(s->analysis->nodes[id.value]));
                ++seen[item->fill().rgb()];
                continue;
            }
            // A collapsed fused group (or scope) takes the colour most of its members that run have: its
            // folded members (a Conv+BN+Relu's BN and Relu) have no placement of their own (issue 63); all
            // folded, it is folded.
            ++groups;
            std::map<QRgb, int> votes;
            auto runs = [&](NodeId m) {
                return expectedPlacementColor(s->analysis->nodes[m.value]) != kFolded;
            };
            const bool anyRuns = std::any_of(members.begin(), members.end(), runs);
            for (NodeId m : members)
                if (!anyRuns || runs(m))
                    ++votes[expectedPlacementColor(s->analysis->nodes[m.value]).rgb()];
            int best = 0;
            for (const auto& [rgb, n] : votes)
                best = std::max(best, n);
            QVERIFY(votes[item->fill().rgb()] == best);
        }
        // Each fused group is one box; a big model opens with its name scopes collapsed (ScopeCollapse, from
        // kMinNodes), and the fused groups inside a closed scope are drawn as that scope's box instead (the
        // scope boxes are tst_scope_collapse's); the colour vote above holds for both kinds of box.
        if (s->graph->nodes.size() < ScopeCollapse::kMinNodes)
            QCOMPARE(groups, fusedGroups);
        else
            QVERIFY(groups > 0);
        QVERIFY(seen[kBpu.rgb()] > 0);
        if (sample.startsWith(QLatin1String("fasterrcnn"))) {
            QVERIFY(s->analysis->summary.cpuNodes > 0);
            QVERIFY(seen[kCpu.rgb()] > 0);
        }
        QCOMPARE(w_->graphView()->legend()->title(), QStringLiteral("Placement"));
        const auto rows = w_->graphView()->legend()->rows();
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows[0].second, kBpu);
        QCOMPARE(rows[1].second, kCpu);

        // Another mode recolours the same items and changes the legend; back to placement restores.
        w_->setColorMode(ColorMode::Padding);
        QCOMPARE(w_->graphView()->legend()->title(), QStringLiteral("Padding waste (G4)"));
        w_->setColorMode(ColorMode::Placement);
        for (NodeItem* item : scene->nodeItems())
            if (item->data().members.size() == 1)
                QCOMPARE(item->fill(),
                         expectedPlacementColor(s->analysis->nodes[item->data().members[0].value]));
    }

    void hotspotClickSelectsEverywhere() {
        reload("yolov8n.onnx");
        const auto s = w_->snapshot();
        NodeId top;
        for (NodeId id : s->graph->topoOrder)
            if (!top.valid() || s->cost.nodes[id.value].latencyUs > s->cost.nodes[top.value].latencyUs)
                top = id;
        QTableView* view = w_->hotspots()->view();
        // Sorted by latency, largest first: the top node's row is the first node row (cost rows - passes, the
        // runtime overhead - rank beside the nodes).
        QModelIndex first;
        for (int r = 0; r < w_->hotspots()->proxy()->rowCount() && !first.isValid(); ++r) {
            const QModelIndex i = w_->hotspots()->proxy()->index(r, 0);
            if (!w_->hotspots()->model()->itemAt(w_->hotspots()->proxy()->mapToSource(i).row()).isRow())
                first = i;
        }
        QVERIFY(first.isValid());
        view->scrollTo(first);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(first).center());
        QCOMPARE(w_->selection()->current(), top);
        QCOMPARE(w_->graphView()->selectedNode(), top);
        NodeItem* item = w_->graphView()->graphScene()->itemForNode(top);
        QVERIFY(item->isCurrent());
        // Centred on the node, readable.
        const QRectF visible =
            w_->graphView()->mapToScene(w_->graphView()->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(item->sceneBoundingRect()));
        QVERIFY(w_->graphView()->zoom() >= 1.0);
        // The inspector shows it.
        const QString name = QString::fromStdString(s->graph->node(top).name);
        QVERIFY(w_->inspector()->details()->toPlainText().contains(name));
        // A click in the graph selects back into the table.
        NodeId other;
        for (NodeId id : s->graph->topoOrder)
            if (id != top && w_->graphView()->graphScene()->itemForNode(id)->data().members.size() == 1) {
                other = id;
                break;
            }
        QVERIFY(other.valid());
        w_->graphView()->zoomToNode(other);
        const QPoint at = w_->graphView()->mapFromScene(
            w_->graphView()->graphScene()->itemForNode(other)->sceneBoundingRect().center());
        QTest::mouseClick(w_->graphView()->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(w_->selection()->current(), other);
        const QModelIndex cur = view->selectionModel()->currentIndex();
        QCOMPARE(w_->hotspots()->model()->nodeAt(w_->hotspots()->proxy()->mapToSource(cur).row()), other);
        QVERIFY(w_->inspector()->details()->toPlainText().contains(
            QString::fromStdString(s->graph->node(other).name)));
    }

    // Sorted by any numeric column, descending, the hotspot table's rows follow the model's own numbers
    // (SortRole), node rows and cost rows alike: the proxy compares node rows' numbers without QVariants.
    void hotspotSortFollowsTheNumbers() {
        QSortFilterProxyModel* proxy = w_->hotspots()->proxy();
        for (int column :
             {HotspotModel::Latency, HotspotModel::Share, HotspotModel::Delta, HotspotModel::Waste,
              HotspotModel::Intensity, HotspotModel::Macs, HotspotModel::Bytes}) {
            proxy->sort(column, Qt::DescendingOrder);
            QVERIFY(proxy->rowCount() > 100);
            for (int r = 1; r < proxy->rowCount(); ++r) {
                const double above = proxy->index(r - 1, column).data(HotspotModel::SortRole).toDouble();
                const double below = proxy->index(r, column).data(HotspotModel::SortRole).toDouble();
                QVERIFY2(above >= below, qPrintable(QStringLiteral("column %1, row %2: %3 above %4")
                                                        .arg(column)
                                                        .arg(r)
                                                        .arg(above)
                                                        .arg(below)));
            }
        }
        proxy->sort(HotspotModel::Latency, Qt::DescendingOrder);
    }

    // An edit that keeps the nodes but adds cost rows (a conv moved to the CPU: transitions) updates the
    // sorted table in place: the order still follows the new numbers (the proxy's key cache was dropped, not
    // reused), the new cost rows are there, and undo takes them out again.
    void hotspotSortFollowsAnEdit() {
        reload("yolov8n.onnx");
        QSortFilterProxyModel* proxy = w_->hotspots()->proxy();
        const HotspotModel* model = w_->hotspots()->model();
        proxy->sort(HotspotModel::Latency, Qt::DescendingOrder);
        const int rowsBefore = model->rowCount();
        const double topBefore =
            proxy->index(0, HotspotModel::Latency).data(HotspotModel::SortRole).toDouble();
        auto sortedByLatency = [&] {
            for (int r = 1; r < proxy->rowCount(); ++r)
                if (proxy->index(r - 1, HotspotModel::Latency).data(HotspotModel::SortRole).toDouble() <
                    proxy->index(r, HotspotModel::Latency).data(HotspotModel::SortRole).toDouble())
                    return false;
            return true;
        };
        // Same rows, new numbers (the stem conv four times as wide, the next conv's input with it): the rows
        // move to their new places.
        w_->whatIf()->apply({editFromJson(nlohmann::json::parse(
                                R"({"op": "set_channels", "node": "/model.0/conv/Conv", "channels": 64})"))},
                            QStringLiteral("test edit"));
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.size() == 1; }));
        QCOMPARE(model->rowCount(), rowsBefore);
        QVERIFY(sortedByLatency());
        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.empty(); }));
        QVERIFY(sortedByLatency());

        w_->whatIf()->apply(
            {editFromJson(nlohmann::json::parse(
                R"({"op": "set_placement", "node": "/model.2/cv1/conv/Conv", "placement": "CPU"})"))},
            QStringLiteral("test edit"));
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.size() == 1; }));
        QVERIFY(sortedByLatency());
        // The conv on the CPU runs in float: it is now the slowest row by far, and the transitions to and
        // from the CPU are new cost rows.
        const NodeId conv = w_->snapshot()->graph->findNode("/model.2/cv1/conv/Conv");
        QCOMPARE(model->nodeAt(proxy->mapToSource(proxy->index(0, 0)).row()), conv);
        QVERIFY(proxy->index(0, HotspotModel::Latency).data(HotspotModel::SortRole).toDouble() > topBefore);
        QVERIFY(model->rowCount() > rowsBefore);
        QCOMPARE(proxy->rowCount(), model->rowCount());

        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.empty(); }));
        QCOMPARE(model->rowCount(), rowsBefore);
        QVERIFY(sortedByLatency());
        QCOMPARE(proxy->index(0, HotspotModel::Latency).data(HotspotModel::SortRole).toDouble(), topBefore);
    }

    void editAndUndoRestoreEveryNumber_data() {
        QTest::addColumn<QString>("edit");
        QTest::addRow("set_batch") << QStringLiteral(R"({"op": "set_batch", "batch": 4})");
        QTest::addRow("set_channels")
            << QStringLiteral(R"({"op": "set_channels", "node": "/model.0/conv/Conv", "channels": 24})");
        QTest::addRow("set_precision") << QStringLiteral(
            R"({"op": "set_precision", "precision": "int16", "nodes": ["/model.0/conv/Conv"]})");
        QTest::addRow("set_input_shape")
            << QStringLiteral(R"({"op": "set_input_shape", "input": "images", "shape": [1, 3, 480, 640]})");
    }

    void editAndUndoRestoreEveryNumber() {
        QFETCH(QString, edit);
        reload("yolov8n.onnx");
        const QStringList before = fixture::numbers(*w_);
        QCOMPARE(before, loadedNumbers_); // a reload reproduces the first load exactly
        QVERIFY(w_->deltaLabel()->text().isEmpty());
        w_->whatIf()->apply({editFromJson(nlohmann::json::parse(edit.toStdString()))},
                            QStringLiteral("test edit"));
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.size() == 1; }));
        const QStringList edited = fixture::numbers(*w_);
        QVERIFY(edited != before);
        QVERIFY(w_->deltaLabel()->text().contains(QStringLiteral("vs baseline")));
        QCOMPARE(int(w_->snapshot()->history.size()), 1);
        QVERIFY(w_->isWindowModified()); // the title marks edits not saved in a project

        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.empty(); }));
        QCOMPARE(fixture::numbers(*w_), before);
        QVERIFY(w_->deltaLabel()->text().isEmpty());
        QVERIFY(!w_->isWindowModified());

        // Redo reproduces the edited state exactly too.
        w_->controller()->redo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.size() == 1; }));
        QCOMPARE(fixture::numbers(*w_), edited);
        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.empty(); }));
        QCOMPARE(fixture::numbers(*w_), before);
    }

    // Intensity is MACs per DDR byte: a LUT op has no MACs, so the inspector names the vector unit as its
    // bound instead of printing "0.0 MACs/DDR byte"; a conv shows its number against the profile's ridge.
    // The image input's H/W editor steps by the runtime's input units (input_h/input_w), not a feature map's.
    void inspectorExplainsIntensityAndInputUnits() {
        reload("yolov8n.onnx");
        const auto s = w_->snapshot();
        const NodeId sigmoid = s->graph->findNode("/model.0/act/Sigmoid");
        const NodeId conv = s->graph->findNode("/model.0/conv/Conv");
        QVERIFY(sigmoid.valid() && conv.valid());
        QCOMPARE(s->analysis->nodes[sigmoid.value].macs, int64_t(0));
        w_->selection()->select(sigmoid, this);
        QString text = w_->inspector()->details()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("compute-bound (vector unit)")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("MACs/DDR byte")), qPrintable(text));
        w_->selection()->select(conv, this);
        text = w_->inspector()->details()->toPlainText();
        QVERIFY2(text.contains(
                     QStringLiteral("MACs/DDR byte (ridge %1)").arg(s->analysis->ridgeIntensity, 0, 'f', 0)),
                 qPrintable(text));

        w_->selection()->select(sigmoid, this); // not conv-like: the editor offers the model input's H/W
        ShapeEditor* editor = w_->inspector()->shapeEditor();
        QCOMPARE(editor->dimension()->currentText(), QStringLiteral("Input H"));
        const auto& al = s->target->alignment;
        QVERIFY(al.inputH.value != al.convH.value); // else this check could not tell them apart
        QCOMPARE(editor->slider()->pageStep(), int(al.inputH.value));
    }

    void dragCommitsOneUndoStep() {
        reload("yolov8n.onnx");
        const QStringList before = fixture::numbers(*w_);
        const NodeId conv = w_->snapshot()->graph->findNode("/model.0/conv/Conv");
        QVERIFY(conv.valid());
        const int64_t c0 = outChannels(*w_->snapshot(), conv);
        w_->selection()->select(conv, this);
        ShapeEditor* editor = w_->inspector()->shapeEditor();
        QCOMPARE(editor->dimension()->currentText(), QStringLiteral("Output channels"));
        QSlider* slider = editor->slider();
        QCOMPARE(slider->value(), int(c0));
        QVERIFY(fixture::waitSettled(*w_)); // the curve is there before the drag
        QVERIFY(editor->plot()->graph(0)->dataCount() > 10);

        std::set<int64_t> seen; // channel counts the window showed while the button was held
        bool watching = false;
        auto drag = [&](int steps, int dx) {
            QPoint p = fixture::handleCenter(slider);
            fixture::sendMouse(slider, QEvent::MouseButtonPress, p, Qt::LeftButton);
            QVERIFY(slider->isSliderDown());
            for (int i = 0; i < steps; ++i) {
                p.rx() += dx;
                fixture::sendMouse(slider, QEvent::MouseMove, p, Qt::LeftButton);
                // Let the worker publish mid-drag states, as a hand that moves slowly would; under a
                // sanitizer on a loaded machine a re-estimate takes longer than a fixed pause, so wait
                // (bounded) for this step's state to be shown.
                const size_t shown = seen.size();
                QTest::qWait(30);
                if (watching)
                    (void)QTest::qWaitFor([&] { return seen.size() > shown; }, 1500); // bounded: may time out
            }
            fixture::sendMouse(slider, QEvent::MouseButtonRelease, p, Qt::NoButton);
            QVERIFY(!slider->isSliderDown());
        };

        auto watch = connect(w_->controller(), &SessionController::snapshotChanged, this, [&](SnapshotPtr s) {
            if (slider->isSliderDown())
                seen.insert(outChannels(*s, conv));
        });
        watching = true;
        drag(6, 12);
        watching = false;
        disconnect(watch);
        const int c1 = slider->value();
        QVERIFY(c1 > c0);
        QVERIFY(seen.size() >= 2); // the estimate followed the drag live
        QVERIFY(fixture::waitSettled(*w_, [&](const Snapshot& s) { return outChannels(s, conv) == c1; }));
        QCOMPARE(int(w_->snapshot()->history.size()), 1); // one step for the whole drag
        // ... and one edit in the list a project saves: the drag's last value.
        QCOMPARE(w_->snapshot()->edits.size(), size_t(1));
        QCOMPARE(w_->snapshot()->edits[0]->toJson().value("channels", 0), c1);
        QVERIFY(fixture::numbers(*w_) != before);

        // A second drag of the same dim is a step of its own.
        QVERIFY(fixture::waitSettled(*w_));
        drag(3, -15);
        const int c2 = slider->value();
        QVERIFY(c2 != c1);
        QVERIFY(fixture::waitSettled(*w_, [&](const Snapshot& s) { return outChannels(s, conv) == c2; }));
        QCOMPARE(int(w_->snapshot()->history.size()), 2);

        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [&](const Snapshot& s) { return outChannels(s, conv) == c1; }));
        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.empty(); }));
        QCOMPARE(outChannels(*w_->snapshot(), conv), c0);
        QCOMPARE(fixture::numbers(*w_), before);
        QTRY_COMPARE(slider->value(), int(c0));
    }

    // yolov8n refuses input sizes between the ones its stride allows (an upsampled map meets its Concat
    // partner): the curve shows which apply, and a drag lands on those instead of offering values it would
    // refuse.
    void dragLandsOnValuesTheModelTakes() {
        reload("yolov8n.onnx");
        w_->selection()->select(w_->snapshot()->graph->findNode("/model.0/act/Sigmoid"), this);
        ShapeEditor* editor = w_->inspector()->shapeEditor();
        QCOMPARE(editor->dimension()->currentText(), QStringLiteral("Input H"));
        QVERIFY(fixture::waitSettled(*w_)); // the curve is there
        QVERIFY2(editor->readout()->text().contains(QStringLiteral("the drag lands on the values")),
                 qPrintable(editor->readout()->text()));
        QSlider* slider = editor->slider();
        slider->setSliderDown(true);
        slider->setValue(239); // refused; 224 applies 15 below it, 255 16 above
        QCOMPARE(slider->value(), 224);
        QCOMPARE(editor->spinBox()->value(), 224);
        slider->setValue(252);
        QCOMPARE(slider->value(), 255);
        slider->setSliderDown(false);
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) {
            return s.graph->tensor(s.graph->inputs[0]).shape.dims[2] == 255 && s.history.size() == 1;
        }));
        QVERIFY(!editor->readout()->text().contains(QStringLiteral("rejected")));
        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.empty(); }));
    }

    // A drag step that is rejected says why under the slider; the reason goes once a later value applies
    // (it described a value the slider no longer shows), and never outlives the drag into an undo.
    void dragRejectionClearsWhenAValueApplies() {
        reload("yolov8n.onnx");
        const NodeId sigmoid = w_->snapshot()->graph->findNode("/model.0/act/Sigmoid");
        QVERIFY(sigmoid.valid());
        w_->selection()->select(sigmoid, this);
        ShapeEditor* editor = w_->inspector()->shapeEditor();
        QCOMPARE(editor->dimension()->currentText(), QStringLiteral("Input H"));
        QVERIFY(fixture::waitSettled(*w_));
        auto inputW = [](const Snapshot& s) {
            return s.graph->tensor(s.graph->inputs[0]).shape.dims[3];
        };
        auto rejectedShown = [&] {
            return editor->readout()->text().contains(QStringLiteral("rejected"));
        };
        // Input W, dragged before its curve is back: nothing tells the drag which values apply yet.
        editor->dimension()->setCurrentIndex(1);
        QCOMPARE(editor->dimension()->currentText(), QStringLiteral("Input W"));
        QSlider* slider = editor->slider();
        slider->setSliderDown(true); // pressed: a drag starts
        // 239 is no multiple of yolov8's stride 32: the upsampled map no longer matches its Concat partner.
        slider->setValue(239);
        QCOMPARE(slider->value(), 239);
        QTRY_VERIFY_WITH_TIMEOUT(rejectedShown(), 60000);
        slider->setValue(320);
        // Mid-drag the states come without finding gains (not settled): wait for the state itself.
        QTRY_VERIFY_WITH_TIMEOUT(inputW(*w_->snapshot()) == 320, 60000);
        QTRY_VERIFY(!rejectedShown());
        slider->setSliderDown(false); // released on an applying value
        QVERIFY(fixture::waitSettled(*w_, [&](const Snapshot& s) { return s.history.size() == 1; }));
        QVERIFY(!rejectedShown());
        // Now the curve knows: a drag to 239 lands on 224 and nothing is rejected.
        slider->setSliderDown(true);
        slider->setValue(239);
        QCOMPARE(slider->value(), 224);
        slider->setSliderDown(false);
        QVERIFY(fixture::waitSettled(*w_, [&](const Snapshot& s) { return inputW(s) == 224; }));
        QVERIFY(!rejectedShown());
        w_->controller()->undo();
        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [&](const Snapshot& s) { return s.edits.empty(); }));
        QCOMPARE(inputW(*w_->snapshot()), int64_t(640));
    }

    void fixedChannelsCannotBeDragged() {
        reload("yolov8n.onnx");
        // The C2f block's Split fixes the channels of the conv feeding it: no value applies.
        const NodeId conv = w_->snapshot()->graph->findNode("/model.2/cv1/conv/Conv");
        QVERIFY(conv.valid());
        w_->selection()->select(conv, this);
        ShapeEditor* editor = w_->inspector()->shapeEditor();
        QVERIFY(fixture::waitSettled(*w_));
        QVERIFY(!editor->slider()->isEnabled());
        QVERIFY(!editor->spinBox()->isEnabled());
        QCOMPARE(editor->plot()->graph(0)->dataCount(), 0);
        QCOMPARE(int(w_->snapshot()->history.size()), 0);
        // Another conv is draggable again.
        w_->selection()->select(w_->snapshot()->graph->findNode("/model.0/conv/Conv"), this);
        QVERIFY(fixture::waitSettled(*w_));
        QVERIFY(editor->slider()->isEnabled());
        QVERIFY(editor->plot()->graph(0)->dataCount() > 10);
    }

    void targetSwitchReestimatesInPlace() {
        reload("yolov8n.onnx");
        const QStringList s100 = fixture::numbers(*w_);
        const double ms100 = w_->snapshot()->cost.perImageMs;
        const uint64_t model = w_->snapshot()->modelId;
        w_->setTarget(QStringLiteral("s100p"));
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.target->name == "s100p"; }));
        QCOMPARE(w_->snapshot()->modelId, model);         // the same model, re-estimated
        QVERIFY(w_->snapshot()->cost.perImageMs < ms100); // the S100P is the faster part
        QVERIFY(w_->estimateLabel()->text().contains(QStringLiteral("s100p")));
        w_->setTarget(QStringLiteral("s100"));
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.target->name == "s100"; }));
        QCOMPARE(fixture::numbers(*w_), s100);

        // A profile that does not load is a warning; the target and every number stay.
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("broken-profile.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"name\": \"broken\"}");
        f.close();
        QSignalSpy rejected(w_->controller(), &SessionController::targetRejected);
        w_->setTarget(bad);
        QTRY_COMPARE_WITH_TIMEOUT(rejected.count(), 1, 60000);
        QVERIFY(w_->lastMessage());
        QCOMPARE(w_->lastMessage()->icon(), QMessageBox::Warning);
        QVERIFY2(w_->lastMessage()->text().contains(QStringLiteral("broken-profile.json")),
                 qPrintable(w_->lastMessage()->text()));
        QVERIFY(fixture::waitSettled(*w_));
        QCOMPARE(w_->snapshot()->target->name, std::string("s100"));
        QCOMPARE(w_->controller()->targetName(), QStringLiteral("s100"));
        QCOMPARE(fixture::numbers(*w_), s100);
        auto* box = w_->findChild<QComboBox*>(QStringLiteral("targetBox"));
        QVERIFY(box);
        QCOMPARE(box->currentData().toString(), QStringLiteral("s100"));
        QCOMPARE(box->findData(bad), -1); // the broken file is not offered again
    }

    void cancelledLoadKeepsTheModel() {
        reload("yolov8n.onnx");
        const SnapshotPtr before = w_->snapshot();
        const Graph* shown = w_->graphView()->graph();
        const QString title = w_->windowTitle();
        const QStringList numbers = fixture::numbers(*w_);
        QSignalSpy failed(w_.get(), &MainWindow::loadFailed);
        QSignalSpy loaded(w_.get(), &MainWindow::loaded);
        w_->openModel(fixture::sample("resnet152.onnx"));
        QVERIFY(w_->isLoading());
        w_->cancelLoad();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("cancelled"));
        QVERIFY(!w_->isLoading());
        QTest::qWait(500); // nothing arrives late
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(w_->snapshot(), before);
        QCOMPARE(w_->graphView()->graph(), shown);
        QCOMPARE(w_->windowTitle(), title);
        QCOMPARE(fixture::numbers(*w_), numbers);
        QVERIFY(!w_->lastMessage()); // cancelling is no error
        // Still fully usable: an edit applies to the model that stayed.
        w_->whatIf()->apply({editFromJson({{"op", "set_batch"}, {"batch", 2}})}, QStringLiteral("test edit"));
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.cost.batch == 2; }));
        QVERIFY(w_->snapshot()->modelPath.endsWith(QLatin1String("yolov8n.onnx")));
        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.empty(); }));
    }

    void badFileShowsErrorAndKeepsTheModel_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("fileName");
        QTest::addRow("garbage") << QByteArray("this is not a protobuf \x01\x02\xff", 25)
                                 << QStringLiteral("garbage.onnx");
        QTest::addRow("empty") << QByteArray() << QStringLiteral("empty.onnx");
        QTest::addRow("missing") << QByteArray("-") << QStringLiteral("missing.onnx");
    }

    void badFileShowsErrorAndKeepsTheModel() {
        QFETCH(QByteArray, content);
        QFETCH(QString, fileName);
        reload("yolov8n.onnx");
        const SnapshotPtr before = w_->snapshot();
        const QStringList numbers = fixture::numbers(*w_);
        QTemporaryDir dir;
        const QString path = dir.filePath(fileName);
        if (content != "-") {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
        }
        QSignalSpy failed(w_.get(), &MainWindow::loadFailed);
        w_->openModel(path);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(fileName), qPrintable(message)); // names the file
        QVERIFY(w_->lastMessage());
        QCOMPARE(w_->lastMessage()->icon(), QMessageBox::Critical);
        QVERIFY(w_->lastMessage()->text().contains(fileName));
        QCOMPARE(w_->snapshot(), before);
        QCOMPARE(fixture::numbers(*w_), numbers);
        QVERIFY(!w_->isLoading());
        w_->lastMessage()->close();
        QTRY_VERIFY(!w_->lastMessage());
    }

    void cleanupTestCase() {
        modelTester_.reset();
        proxyTester_.reset();
        w_.reset();
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
