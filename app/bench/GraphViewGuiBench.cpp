// SPDX-License-Identifier: MIT
// Benchmark family (GUI): building and adopting the graph scene, and full repaints of the graph view at
// several zoom levels, offscreen. Also the screenshot harness behind `bpuscope-bench --shots=DIR`.
#include "BenchMain.h"
#include "BenchSupport.h"

#include "ui/graph/GraphScene.h"
#include "ui/graph/GraphView.h"
#include "ui/graph/NodeColoring.h"
#include "ui/graph/NodeItem.h"
#include "ui/graph/SceneData.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QScrollBar>
#include <QTimer>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <map>
#include <memory>

namespace {

const QSize kViewSize(1600, 1000);

bool waitForLayout(bpu::ui::GraphView& view) {
    if (!view.isLayoutPending())
        return true;
    QEventLoop loop;
    QObject::connect(&view, &bpu::ui::GraphView::layoutReady, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    loop.exec();
    return !view.isLayoutPending();
}

/// A shown view with `graph` laid out; one per graph, kept for the run.
bpu::ui::GraphView* viewFor(const bpu::Graph& graph, std::vector<int> groupOf = {}) {
    auto* view = new bpu::ui::GraphView;
    view->resize(kViewSize);
    view->show();
    view->setModel(graph, std::move(groupOf));
    waitForLayout(*view);
    QApplication::processEvents();
    return view;
}

/// Views kept across benchmarks; widgets must go before the QApplication (bench::shutdownGui()).
std::map<int, std::unique_ptr<bpu::ui::GraphView>>& syntheticViews() {
    static std::map<int, std::unique_ptr<bpu::ui::GraphView>> views;
    return views;
}

bpu::ui::GraphView* syntheticView(int nodes) {
    auto& v = syntheticViews()[nodes];
    if (!v)
        v.reset(viewFor(bench::synthetic(nodes)));
    return v.get();
}

/// The box in the middle of the topological order: a 1:1 view there shows a typical stretch of graph.
bpu::NodeId middleNode(const bpu::Graph& g) {
    return g.topoOrder[g.topoOrder.size() / 2];
}

void BM_SceneBuild(benchmark::State& state) {
    const bpu::Graph& g = bench::synthetic(int(state.range(0)));
    bpu::ui::SceneRequest req{std::make_shared<const bpu::Graph>(g), {}, {}, {}, {}};
    for (auto _ : state) {
        auto items = std::make_shared<bpu::ui::SceneItems>(bpu::ui::buildSceneData(req));
        benchmark::DoNotOptimize(items->nodes.data());
    }
}

void BM_SceneAdopt(benchmark::State& state) {
    const bpu::Graph& g = bench::synthetic(int(state.range(0)));
    bpu::ui::SceneRequest req{std::make_shared<const bpu::Graph>(g), {}, {}, {}, {}};
    auto data = bpu::ui::buildSceneData(req);
    bpu::ui::GraphScene scene;
    scene.setColoring(std::make_shared<bpu::ui::OpCategoryColoring>(g));
    for (auto _ : state) {
        state.PauseTiming();
        bpu::ui::SceneItems items(data);
        state.ResumeTiming();
        // What the GUI thread pays: dropping the old items, adding the new, polishing them in the event loop
        // and building the BSP index on the first query (as the first paint would).
        scene.adopt(items);
        QApplication::processEvents();
        benchmark::DoNotOptimize(scene.itemAt(QPointF(0, 0), QTransform()));
    }
}

enum class Zoom { Fit, Scale01, Scale03, OneToOne };

void BM_Frame(benchmark::State& state) {
    bpu::ui::GraphView* view = syntheticView(int(state.range(0)));
    const auto zoom = Zoom(state.range(1));
    if (zoom == Zoom::Fit) {
        view->fitToView();
    } else {
        view->setZoom(zoom == Zoom::Scale01 ? 0.1 : zoom == Zoom::Scale03 ? 0.3 : 1.0);
        view->centerOn(view->graphScene()->itemForNode(middleNode(*view->graph())));
    }
    QApplication::processEvents();
    for (auto _ : state)
        view->viewport()->repaint(); // synchronous full repaint into the backing store
    state.counters["zoom"] = view->zoom();
    state.counters["fps"] = benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_FramePan(benchmark::State& state) {
    // Scrolling by 40 px per frame at 1:1: what a drag pan costs (only the exposed strip is repainted).
    bpu::ui::GraphView* view = syntheticView(int(state.range(0)));
    view->setZoom(1.0);
    view->centerOn(view->graphScene()->itemForNode(middleNode(*view->graph())));
    QApplication::processEvents();
    int dir = 1;
    for (auto _ : state) {
        auto* bar = view->verticalScrollBar();
        if (bar->value() + 40 * dir > bar->maximum() || bar->value() + 40 * dir < bar->minimum())
            dir = -dir;
        bar->setValue(bar->value() + 40 * dir);
        view->viewport()->repaint();
    }
}

} // namespace

BENCHMARK(BM_SceneBuild)
    ->Name("graphview/scene_build_worker")
    ->ArgNames({"nodes"})
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SceneAdopt)
    ->Name("graphview/scene_adopt_gui")
    ->ArgNames({"nodes"})
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Frame)
    ->Name("graphview/frame")
    ->ArgNames({"nodes", "zoom"}) // zoom: 0 fit, 1 scale 0.1, 2 scale 0.3, 3 scale 1
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->Args({10000, 2})
    ->Args({10000, 3})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FramePan)
    ->Name("graphview/frame_pan_1to1")
    ->ArgNames({"nodes"})
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);

namespace bench {

namespace {

bool save(bpu::ui::GraphView& view, const QString& dir, const QString& name) {
    QApplication::processEvents();
    const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
    const bool ok = view.grab().save(path);
    std::printf("%s %s (zoom %.3f)\n", ok ? "wrote" : "FAILED", qPrintable(path), view.zoom());
    return ok;
}

std::vector<int> siluGroups(const bpu::Graph& g) {
    std::vector<int> groupOf(g.nodes.size(), -1);
    int groups = 0;
    for (const auto& n : g.nodes) {
        if (n.opType != "Conv")
            continue;
        std::vector<bpu::NodeId> members{n.id};
        for (bpu::NodeId c : g.tensor(n.outputs[0]).consumers)
            if (g.node(c).opType == "Sigmoid" || g.node(c).opType == "Mul")
                members.push_back(c);
        if (members.size() == 3) {
            for (bpu::NodeId m : members)
                groupOf[m.value] = groups;
            ++groups;
        }
    }
    return groupOf;
}

} // namespace

void shutdownGui() {
    syntheticViews().clear();
}

bool writeShots(const QString& dir) {
    QDir().mkpath(dir);
    bool ok = true;
    for (const char* file : {"resnet152.onnx", "yolov8n.onnx"}) {
        const bpu::Graph* g = sample(file);
        if (!g)
            return false;
        const QString name = QString::fromStdString(stem(file));
        std::unique_ptr<bpu::ui::GraphView> view(viewFor(*g));
        std::printf("%s: layout %.1f ms\n", file, view->lastLayoutMs());
        ok &= save(*view, dir, name + QStringLiteral("-start"));
        view->fitToView();
        ok &= save(*view, dir, name + QStringLiteral("-fit"));
        view->setZoom(0.35);
        view->centerOn(view->graphScene()->itemForNode(middleNode(*g)));
        ok &= save(*view, dir, name + QStringLiteral("-0.35"));
        const bpu::NodeId focus =
            g->findNode(name == QStringLiteral("yolov8n") ? "/model.12/Concat" : "/layer3/layer3.0/Add");
        view->zoomToNode(focus.valid() ? focus : middleNode(*g));
        ok &= save(*view, dir, name + QStringLiteral("-1to1"));
        view->search(QStringLiteral("Concat"));
        view->findNext();
        view->setZoom(0.7);
        ok &= save(*view, dir, name + QStringLiteral("-search"));
    }
    {
        const bpu::Graph* g = sample("yolov8n.onnx");
        std::unique_ptr<bpu::ui::GraphView> view(viewFor(*g, siluGroups(*g)));
        view->setZoom(0.8);
        view->centerOn(view->graphScene()->itemForNode(g->findNode("/model.12/Concat")));
        ok &= save(*view, dir, QStringLiteral("yolov8n-groups"));
        view->setGroupExpanded(
            view->graphScene()->itemForNode(g->findNode("/model.12/cv2/conv/Conv"))->data().group, true);
        waitForLayout(*view);
        ok &= save(*view, dir, QStringLiteral("yolov8n-groups-expanded"));
        std::vector<double> heat(g->nodes.size());
        for (size_t i = 0; i < heat.size(); ++i)
            heat[i] = double(i) / double(heat.size());
        view->setColoring(
            std::make_shared<bpu::ui::HeatColoring>(heat, QStringLiteral("Topological position")));
        std::vector<bpu::TensorId> marks;
        for (const auto& n : g->nodes)
            if (n.opType == "Concat")
                marks.push_back(n.outputs[0]);
        view->setMarkedTensors(marks);
        ok &= save(*view, dir, QStringLiteral("yolov8n-heat-marks"));
    }
    {
        bpu::ui::GraphView* view = syntheticView(10000);
        view->fitToView();
        ok &= save(*view, dir, QStringLiteral("synthetic10k-fit"));
        view->setZoom(0.1);
        view->centerOn(view->graphScene()->itemForNode(middleNode(*view->graph())));
        ok &= save(*view, dir, QStringLiteral("synthetic10k-0.1"));
    }
    ok &= writeWorkbenchShots(dir);
    return ok;
}

} // namespace bench
