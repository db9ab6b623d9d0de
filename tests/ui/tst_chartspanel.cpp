// SPDX-License-Identifier: MIT
// The charts dock in the workbench, offscreen on YOLOv8n: each chart shows the current snapshot (and follows
// an edit), a click on a bar or a roofline point selects its node everywhere, the selection is marked.
#include "WorkbenchFixture.h"
#include "ui/charts/HotspotSeries.h"

#include "core/analysis/AnalysisResult.h"
#include "core/edit/EditList.h"
#include "ui/charts/ChartsPanel.h"
#include "ui/charts/RankedBarChart.h"
#include "ui/charts/RooflineChart.h"
#include "ui/session/SelectionHub.h"
#include "ui/whatif/WhatIfActions.h"

#include <QTabWidget>

#include <algorithm>
#include <set>

using namespace bpu;
using namespace bpu::ui;

namespace {

bool hasItem(QCustomPlot* plot, const char* className) {
    for (int i = 0; i < plot->itemCount(); ++i)
        if (QLatin1String(plot->item(i)->metaObject()->className()) == QLatin1String(className))
            return true;
    return false;
}

/// The centre of bar row `row` (0 = largest) in the chart's widget coordinates.
QPoint barPoint(charts::RankedBarChart* chart, size_t row) {
    const double x = chart->xAxis->coordToPixel(chart->series().items[row].value / 2);
    return QPoint(int(x), int(chart->yAxis->coordToPixel(double(row + 1))));
}

} // namespace

class TestChartsPanel : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    ChartsPanel* charts_ = nullptr;

    void show(ChartsPanel::Chart c) {
        charts_->tabs()->setCurrentIndex(c);
        QVERIFY(charts_->isCurrent(c));
    }

private slots:
    void initTestCase() {
        fixture::isolateSettings();
        w_ = std::make_unique<MainWindow>();
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        w_->openModel(fixture::sample("yolov8n.onnx"));
        QVERIFY(fixture::waitSettled(*w_));
        charts_ = w_->charts();
        QVERIFY(charts_->isVisible());
    }

    // The Top layers bars are core's hotspot list: the 15 largest of every node and every cost row (the
    // runtime overhead, Q/DQ passes...), nodes coloured by placement, rows in a category of their own.
    void latencyBarsAreTheSlowestLayers() {
        show(ChartsPanel::Latency);
        const auto s = w_->snapshot();
        const auto& items = charts_->latencyChart()->series().items;
        QCOMPARE(items.size(), size_t(15));
        std::vector<double> all;
        for (const auto& c : s->cost.nodes)
            all.push_back(c.latencyUs);
        for (const auto& r : s->cost.rows)
            all.push_back(r.us);
        std::sort(all.rbegin(), all.rend());
        int rows = 0;
        for (size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(items[i].value, all[i]); // the i-th largest of every node and row
            if (items[i].category == charts::kCostRowCategory) {
                ++rows;
                const auto it = std::find_if(s->cost.rows.begin(), s->cost.rows.end(),
                                             [&](const CostRow& r) { return r.label == items[i].label; });
                QVERIFY2(it != s->cost.rows.end(), items[i].label.c_str());
                QCOMPARE(items[i].value, it->us);
                continue;
            }
            QVERIFY(items[i].node.valid());
            QCOMPARE(items[i].value, s->cost.nodes[items[i].node.value].latencyUs);
            QCOMPARE(items[i].label, s->graph->node(items[i].node).name);
            const Placement p = s->analysis->nodes[items[i].node.value].placement;
            QCOMPARE(items[i].category, p == Placement::BPU   ? 0
                                        : p == Placement::CPU ? 1
                                                              : 2); // legend order
        }
        QVERIFY(rows >= 1); // yolov8n: the runtime overhead is its largest item
        // One bars plottable per placement shown, their data covering every row.
        int bars = 0;
        for (int i = 0; i < charts_->latencyChart()->plottableCount(); ++i)
            if (auto* b = qobject_cast<QCPBars*>(charts_->latencyChart()->plottable(i)))
                bars += b->dataCount();
        QCOMPARE(size_t(bars), items.size());
    }

    void clickingABarSelectsItsNode() {
        show(ChartsPanel::Latency);
        auto* chart = charts_->latencyChart();
        for (size_t row : {size_t(0), size_t(2), size_t(7)}) {
            const NodeId expected = chart->series().items[row].node;
            QCOMPARE(charts_->nodeAt(ChartsPanel::Latency, barPoint(chart, row)), expected);
            QTest::mouseClick(chart, Qt::LeftButton, {}, barPoint(chart, row));
            QCOMPARE(w_->selection()->current(), expected);
            QCOMPARE(w_->graphView()->selectedNode(), expected);
        }
        QVERIFY(hasItem(chart, "QCPItemRect")); // the selected row is marked
        // Outside the rows: nothing.
        QVERIFY(!charts_->nodeAt(ChartsPanel::Latency, QPoint(5, 2)).valid());
    }

    void rooflineHasEveryBpuLayerAndTheRidge() {
        show(ChartsPanel::Roofline);
        const auto s = w_->snapshot();
        const auto& d = charts_->rooflineChart()->data();
        QCOMPARE(d.ridgeIntensity, s->target->ridgeIntensity());
        std::set<uint32_t> expected, shown;
        for (NodeId id : s->graph->topoOrder) {
            const auto& a = s->analysis->nodes[id.value];
            if (a.placement == Placement::BPU && a.macs > 0 && a.ddrBytes > 0 &&
                s->cost.nodes[id.value].latencyUs > 0)
                expected.insert(id.value);
        }
        for (const auto& p : d.points)
            shown.insert(p.node.value);
        QCOMPARE(shown, expected);
        QVERIFY(d.points.size() > 50);
        QCOMPARE(size_t(d.computeBound + d.memoryBound), d.points.size());
    }

    void clickingARooflinePointSelectsIt() {
        show(ChartsPanel::Roofline);
        auto* chart = charts_->rooflineChart();
        const auto& points = chart->data().points;
        // The point farthest from the others, so the click is not ambiguous.
        size_t pick = 0;
        double bestGap = -1;
        auto pixel = [&](size_t i) {
            return QPointF(chart->xAxis->coordToPixel(points[i].intensity),
                           chart->yAxis->coordToPixel(points[i].macsPerSecond / 1e9));
        };
        for (size_t i = 0; i < points.size(); ++i) {
            double gap = 1e9;
            for (size_t j = 0; j < points.size(); ++j)
                if (j != i)
                    gap = std::min(gap, QLineF(pixel(i), pixel(j)).length());
            if (gap > bestGap && chart->axisRect()->rect().contains(pixel(i).toPoint())) {
                bestGap = gap;
                pick = i;
            }
        }
        QVERIFY(bestGap > 10);
        const QPoint at = (pixel(pick) + QPointF(2, -2)).toPoint(); // a near miss still picks it
        QTest::mouseClick(chart, Qt::LeftButton, {}, at);
        QCOMPARE(w_->selection()->current(), points[pick].node);
        QVERIFY(hasItem(chart, "QCPItemTracer")); // ringed
        // Far from every point: nothing is picked.
        QVERIFY(!charts_->nodeAt(ChartsPanel::Roofline, QPoint(2, 2)).valid());
    }

    void paddingAndOpTypes() {
        show(ChartsPanel::Padding);
        const auto s = w_->snapshot();
        const auto& pad = charts_->paddingChart()->series().items;
        QVERIFY(!pad.empty());
        for (size_t i = 0; i < pad.size(); ++i) {
            int64_t waste = 0;
            for (TensorId t : s->graph->node(pad[i].node).outputs)
                waste += s->analysis->tensors[t.value].padded.wasteBytes;
            QCOMPARE(pad[i].value, double(waste) / 1024.0);
            if (i > 0)
                QVERIFY(pad[i - 1].value >= pad[i].value);
        }
        show(ChartsPanel::Ops);
        const auto& ops = charts_->opsChart()->series().items;
        double conv = 0;
        for (const auto& n : s->graph->nodes)
            if (n.opType == "Conv")
                conv += s->cost.nodes[n.id.value].latencyUs;
        const auto it = std::find_if(ops.begin(), ops.end(), [](const auto& b) { return b.label == "Conv"; });
        QVERIFY(it != ops.end());
        QVERIFY(std::fabs(it->value - conv) <= 1e-9 * conv);
    }

    void chartsFollowEdits() {
        show(ChartsPanel::Latency);
        const double before = charts_->latencyChart()->series().items.front().value;
        w_->whatIf()->apply({editFromJson({{"op", "set_batch"}, {"batch", 4}})}, QStringLiteral("test edit"));
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.cost.batch == 4; }));
        QVERIFY(charts_->isCurrent(ChartsPanel::Latency));   // the visible chart follows at once
        QVERIFY(!charts_->isCurrent(ChartsPanel::Roofline)); // hidden ones catch up when shown
        const auto s = w_->snapshot();
        double top = 0;
        for (const auto& c : s->cost.nodes)
            top = std::max(top, c.latencyUs);
        for (const auto& r : s->cost.rows)
            top = std::max(top, r.us);
        QCOMPARE(charts_->latencyChart()->series().items.front().value, top);
        QVERIFY(top != before);
        show(ChartsPanel::Roofline);
        QCOMPARE(charts_->rooflineChart()->data().points.front().latencyUs,
                 s->cost.nodes[charts_->rooflineChart()->data().points.front().node.value].latencyUs);
        w_->controller()->undo();
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.cost.batch == 1; }));
        QCOMPARE(
            charts_->rooflineChart()->data().points.front().latencyUs,
            w_->snapshot()->cost.nodes[charts_->rooflineChart()->data().points.front().node.value].latencyUs);
    }

    void cleanupTestCase() { w_.reset(); }
};

QTEST_MAIN(TestChartsPanel)
#include "tst_chartspanel.moc"
