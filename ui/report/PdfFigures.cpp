// SPDX-License-Identifier: MIT
// Charts (replayed QPictures) and the graph overview figures.
#include "GraphOverviewPainter.h"
#include "PdfComposer.h"
#include "ui/charts/ChartStyle.h"
#include "ui/graph/NodeColoring.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace bpu::ui {

using namespace reportColors;

namespace {

std::shared_ptr<const NodeColoring> placementColoring(const report::GraphOverview& o) {
    QVector<QPair<QString, QColor>> legend;
    const auto& names = report::placementCategories();
    for (size_t i = 0; i < names.size(); ++i)
        legend.append({qs(names[i]), charts::placementColor(int(i))});
    return std::make_shared<CategoryColoring>(o.placement, legend, QStringLiteral("Placement"));
}

std::shared_ptr<const NodeColoring> paddingColoring(const report::GraphOverview& o) {
    return std::make_shared<HeatColoring>(o.wasteRatio, QStringLiteral("Padding waste"));
}

std::shared_ptr<const NodeColoring> latencyColoring(const report::GraphOverview& o) {
    double maxShare = 0;
    for (double s : o.latencyShare)
        maxShare = std::max(maxShare, s);
    std::vector<double> v(o.latencyShare.size());
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = maxShare > 0 ? o.latencyShare[i] / maxShare : 0;
    return std::make_shared<HeatColoring>(v, QStringLiteral("Latency share"), QStringLiteral("0%"),
                                          QString::number(maxShare * 100, 'f', 1) + QLatin1Char('%'));
}

} // namespace

std::shared_ptr<const SceneData> PdfComposer::scene() {
    if (!scene_ && doc_.overview.graph) {
        progress_(0.1, "graph layout");
        SceneRequest request;
        request.graph = doc_.overview.graph;
        request.groupOf = doc_.overview.groupOf;
        scene_ = buildSceneData(request);
    }
    return scene_;
}

void PdfComposer::chart(const report::ChartBlock& c) {
    const TextBox caption = makeText(qs(c.caption), fonts_.italic, flow_.width());
    auto it = charts_.charts.find(c.kind);
    if (it == charts_.charts.end() || it->second.size.isEmpty()) {
        note({"(Chart not rendered: " + c.caption + ")"});
        return;
    }
    const ChartPictures::Chart& ch = it->second;
    const double scale = std::min(1.0, flow_.width() / ch.size.width());
    const double h = ch.size.height() * scale;
    flow_.ensure(h + caption.height() + pt(4));
    const double x = flow_.left(), y = flow_.y();
    const QPicture picture = ch.picture;
    flow_.add([picture, x, y, scale](QPainter& p) {
        p.translate(x, y);
        p.scale(scale, scale);
        p.drawPicture(0, 0, picture);
    });
    flow_.advance(h + pt(2));
    flow_.flowText(caption, flow_.left(), muted());
    flow_.advance(pt(12));
}

void PdfComposer::graphPair() {
    if (graphPairDone_)
        return; // both whole-model figures are drawn side by side at the first of them
    graphPairDone_ = true;
    const auto sceneData = scene();
    if (!sceneData || sceneData->boxes.empty()) {
        note({"(No graph to draw.)"});
        return;
    }
    const report::GraphOverview& o = doc_.overview;
    // The figure gets the rest of this page if that is most of a page, else a fresh one.
    if (flow_.remaining() < flow_.content().height() * 0.6)
        flow_.newPage();
    const double gap = pt(14), colW = (flow_.width() - gap) / 2;
    const TextBox capA =
        makeText(QStringLiteral("Placement: BPU, CPU, folded (constant-folded)."), fonts_.italic, colW);
    const TextBox capB =
        makeText(QStringLiteral("Padding waste ratio of each node's outputs (grey: not padded)."),
                 fonts_.italic, colW);
    const double legendH = pt(14);
    const double capH = std::max(capA.height(), capB.height());
    const double areaH = flow_.remaining() - legendH - capH - pt(12);
    const double x = flow_.left(), y = flow_.y();
    const auto colorA = placementColoring(o), colorB = paddingColoring(o);
    const QFont legendFont = fonts_.tiny;
    flow_.add(
        [sceneData, colorA, colorB, capA, capB, x, y, colW, gap, areaH, legendH, legendFont](QPainter& p) {
            GraphOverviewPainter painter(sceneData);
            for (int i = 0; i < 2; ++i) {
                const NodeColoring& coloring = i == 0 ? *colorA : *colorB;
                const double cx = x + i * (colW + gap);
                GraphOverviewPainter::paintLegend(p, QPointF(cx, y), colW, coloring, legendFont);
                const QRectF area(cx, y + legendH, colW, areaH);
                p.setPen(QPen(line(), 0.6));
                p.setBrush(Qt::NoBrush);
                p.drawRect(area);
                painter.paintThumbnail(p, area.adjusted(4, 4, -4, -4), coloring);
                (i == 0 ? capA : capB).draw(p, QPointF(cx, area.bottom() + 4), muted());
            }
        });
    flow_.advance(legendH + areaH + capH + pt(12));
}

void PdfComposer::hotspotFigure(const report::FigureBlock& f) {
    const auto sceneData = scene();
    const report::GraphOverview& o = doc_.overview;
    if (!sceneData || sceneData->boxes.empty() || o.focusNodes.empty())
        return;
    const TextBox caption = makeText(qs(f.caption), fonts_.italic, flow_.width());
    const double legendH = pt(14);
    const double areaH = std::min(pt(360), flow_.content().height() * 0.55);
    flow_.ensure(legendH + areaH + caption.height() + pt(8));
    const double x = flow_.left(), y = flow_.y(), w = flow_.width();
    const auto coloring = latencyColoring(o);
    const std::vector<NodeId> nodes = o.focusNodes;
    const NodeId focus = o.focus;
    const QFont font = fonts_.tiny, legendFont = fonts_.tiny;
    flow_.add([sceneData, coloring, nodes, focus, font, legendFont, x, y, w, areaH, legendH](QPainter& p) {
        GraphOverviewPainter::paintLegend(p, QPointF(x, y), w, *coloring, legendFont);
        GraphOverviewPainter(sceneData).paintZoom(p, QRectF(x, y + legendH, w, areaH), *coloring, nodes,
                                                  focus, font);
    });
    flow_.advance(legendH + areaH + pt(3));
    flow_.flowText(caption, flow_.left(), muted());
    flow_.advance(pt(10));
}

} // namespace bpu::ui
