// SPDX-License-Identifier: MIT
// Benchmark family (GUI): what one new snapshot costs the GUI thread in the workbench's panels (hotspot
// table, charts, graph colours), i.e. the per-step price of a live drag. Also the workbench screenshots of
// `bpuscope-bench --shots=DIR` (a drag edit in progress).
#include "BenchMain.h"
#include "BenchPaths.h"
#include "BenchSupport.h"

#include "core/analysis/AnalysisResult.h"
#include "core/cost/ScopeFigures.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/Session.h"
#include "core/edit/ShapeEdits.h"
#include "core/target/TargetProfile.h"
#include "ui/charts/ChartsPanel.h"
#include "ui/graph/GraphView.h"
#include "ui/hotspots/HotspotPanel.h"
#include "ui/inspector/InspectorPanel.h"
#include "ui/inspector/ShapeEditor.h"
#include "ui/main/ColorModes.h"
#include "ui/main/MainWindow.h"
#include "ui/session/JobTracker.h"
#include "ui/session/SelectionHub.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMouseEvent>
#include <QSlider>
#include <QStyleOptionSlider>
#include <QTabWidget>
#include <QTimer>
#include <benchmark/benchmark.h>
#include <cstdio>

namespace {

/// Two snapshots of `g` (as loaded, and edited: batch 2, or where shapes cannot be re-inferred as on the
/// synthetic graphs, the middle node moved to the CPU) so every update really changes the numbers.
std::pair<bpu::ui::SnapshotPtr, bpu::ui::SnapshotPtr> snapshotsOf(const bpu::Graph& g) {
    auto target = std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100"));
    bpu::Session session(g, target);
    auto snap = [&session] {
        auto s = std::make_shared<bpu::ui::Snapshot>();
        session.findings();
        s->graph = std::make_shared<const bpu::Graph>(session.graph());
        s->target = session.targetPtr();
        *s->analysis = session.analysis();
        s->cost = session.cost();
        s->baseline = s->cost;
        *s->baselineSummary = s->analysis->summary;
        s->deltas = std::make_shared<const bpu::NodeDeltas>(*s->graph, s->cost, *s->graph, s->cost);
        s->findingsReady = true;
        return s;
    };
    auto a = snap();
    try {
        bpu::SetBatchEdit(2).apply(session);
    } catch (const std::exception&) {
        bpu::SetPlacementEdit(g.node(g.topoOrder[g.topoOrder.size() / 2]).name, bpu::Placement::CPU)
            .apply(session);
    }
    auto b = snap();
    b->baseline = a->cost;
    b->deltas = std::make_shared<const bpu::NodeDeltas>(*b->graph, b->cost, *a->graph, a->cost);
    return {a, b};
}

/// range(0): 0 = yolov8x sample, else a synthetic graph of that many nodes.
void BM_PanelsUpdate(benchmark::State& state) {
    const bpu::Graph* g =
        state.range(0) == 0 ? bench::sample("yolov8x.onnx") : &bench::synthetic(int(state.range(0)));
    if (!g) {
        state.SkipWithError("sample does not import");
        return;
    }
    std::pair<bpu::ui::SnapshotPtr, bpu::ui::SnapshotPtr> snaps;
    try {
        snaps = snapshotsOf(*g);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
        return;
    }
    bpu::ui::SelectionHub hub;
    QWidget host;
    host.resize(1500, 950);
    auto* hotspots = new bpu::ui::HotspotPanel(&hub, &host);
    auto* charts = new bpu::ui::ChartsPanel(&hub, &host);
    auto* view = new bpu::ui::GraphView(&host);
    hotspots->setGeometry(0, 0, 800, 300);
    charts->setGeometry(800, 0, 700, 300);
    view->setGeometry(0, 300, 1500, 650);
    host.show();
    view->setModel(snaps.first->graph);
    QEventLoop loop;
    QObject::connect(view, &bpu::ui::GraphView::layoutReady, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
    bool flip = false;
    for (auto _ : state) {
        const auto& s = flip ? snaps.second : snaps.first;
        flip = !flip;
        hotspots->setSnapshot(s);
        charts->setSnapshot(s);
        view->setColoring(bpu::ui::makeColoring(bpu::ui::ColorMode::Latency, *s));
        // As MainWindow::showSnapshot does: the scope boxes' sums follow every snapshot.
        view->setNodeFigures(bpu::nodeFigures(*s->graph, *s->analysis, s->cost));
        QApplication::processEvents(); // the queued chart replot and the repaints
    }
    state.counters["nodes"] = double(g->nodes.size());
}

/// Waits until the window shows a settled state; mid-drag snapshots carry no finding gains, so a drag waits
/// with `gains` false.
void settle(bpu::ui::MainWindow& w, const std::function<bool(const bpu::ui::Snapshot&)>& also = {},
            bool gains = true) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 120000) {
        const auto s = w.snapshot();
        // The job tracker is idle in every lane (load, session, sweep, layout, export).
        if (s && (s->findingsReady || !gains) && w.jobs()->isSettled() && (!also || also(*s)))
            return;
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    }
}

QPoint handleCenter(QSlider* s) {
    QStyleOptionSlider opt;
    opt.initFrom(s);
    opt.orientation = s->orientation();
    opt.minimum = s->minimum();
    opt.maximum = s->maximum();
    opt.sliderPosition = s->sliderPosition();
    opt.sliderValue = s->value();
    opt.subControls = QStyle::SC_All;
    return s->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, s).center();
}

void mouse(QWidget* w, QEvent::Type type, const QPoint& pos, Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(pos), QPointF(w->mapToGlobal(pos)),
                  type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

} // namespace

BENCHMARK(BM_PanelsUpdate)
    ->Name("workbench/panels_update_gui")
    ->ArgNames({"nodes"}) // 0: the yolov8x sample
    ->Arg(0)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);

namespace bench {

bool writeWorkbenchShots(const QString& dir) {
    struct Drag {
        const char* model;
        const char* conv;
        int pixels; ///< how far the handle is dragged (right: more channels)
    };
    bool ok = true;
    for (const Drag& d : {Drag{"yolov8n.onnx", "/model.1/conv/Conv", 60},
                          Drag{"resnet50.onnx", "/layer4/layer4.0/conv2/Conv", -60}}) {
        bpu::ui::MainWindow w;
        w.show();
        w.openModel(QString::fromStdString(bench::samplesDir() + "/") + QLatin1String(d.model));
        settle(w);
        const auto s = w.snapshot();
        const bpu::NodeId conv = s ? s->graph->findNode(d.conv) : bpu::NodeId{};
        if (!conv.valid()) {
            std::printf("FAILED %s: no node %s\n", d.model, d.conv);
            ok = false;
            continue;
        }
        w.selection()->select(conv, &w);
        w.setColorMode(bpu::ui::ColorMode::Delta);
        settle(w);
        QSlider* slider = w.inspector()->shapeEditor()->slider();
        const int before = slider->value();
        QPoint p = handleCenter(slider);
        mouse(slider, QEvent::MouseButtonPress, p, Qt::LeftButton);
        for (int i = 0; i < 10; ++i) {
            p.rx() += d.pixels / 10;
            mouse(slider, QEvent::MouseMove, p, Qt::LeftButton);
            QApplication::processEvents(QEventLoop::AllEvents, 40);
        }
        const int value = slider->value();
        // Mid-drag: the button is still held; wait for the live estimate of this value to land.
        settle(
            w,
            [&](const bpu::ui::Snapshot& snap) {
                const auto& n = snap.graph->node(conv);
                return snap.graph->tensor(n.inputs[1]).shape.dims[0] == value;
            },
            false);
        QApplication::processEvents();
        const QString path =
            QDir(dir).filePath(QString::fromStdString(stem(d.model)) + QStringLiteral("-drag.png"));
        const bool saved = w.grab().save(path);
        std::printf("%s %s (channels %d -> %d, mid-drag)\n", saved ? "wrote" : "FAILED", qPrintable(path),
                    before, value);
        ok &= saved;
        mouse(slider, QEvent::MouseButtonRelease, p, Qt::NoButton);
        settle(w);
    }
    return ok;
}

} // namespace bench
