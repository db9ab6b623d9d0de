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
    return std::make_shared<PlacementColoring>(o.placement, legend, QStringLiteral("Placement"));
}

std::shared_ptr<const NodeColoring> paddingColoring(const report::GraphOverview& o) {
    return std::make_shared<HeatColoring>(o.wasteRatio, QStringLiteral("Padding waste"));
}

/// Latency share relative to the model's largest, for the nodes of the drawn graph (`source` maps its node
/// ids to the overview's).
std::shared_ptr<const NodeColoring> latencyColoring(const report::GraphOverview& o,
                                                    const std::vector<NodeId>& source) {
    double maxShare = 0;
    for (double s : o.latencyShare)
        maxShare = std::max(maxShare, s);
    std::vector<double> v(source.size());
    for (size_t i = 0; i < v.size(); ++i)
        v[i] = maxShare > 0 ? o.latencyShare[source[i].value] / maxShare : 0;
    return std::make_shared<HeatColoring>(v, QStringLiteral("Latency share"), QStringLiteral("0%"),
                                          QString::number(maxShare * 100, 'f', 1) + QLatin1Char('%'));
}

} // namespace

std::shared_ptr<const SceneData> PdfComposer::scene() {
    if (!scene_ && doc_.overview.graph) {
        progress_(fraction_, "laying out: graph layout");
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
    flow_.advance(h);
    flow_.advance(pt(2));
    flow_.flowText(caption, flow_.left(), muted());
    flow_.advance(pt(12));
}

void PdfComposer::graphPair(const report::Section& section) {
    if (graphPairDone_)
        return; // both whole-model figures are drawn at the first of them
    graphPairDone_ = true;
    const auto sceneData = scene();
    if (!sceneData || sceneData->boxes.empty()) {
        note({"(No graph to draw.)"});
        return;
    }
    const report::GraphOverview& o = doc_.overview;
    // The figures get the rest of this page if that is most of a page, else a fresh one.
    if (flow_.remaining() < flow_.content().height() * 0.6)
        flow_.newPage();
    const GraphOverviewPainter painter(sceneData);
    const double gap = pt(14), legendH = pt(14), inset = 4;
    QString textA, textB; // the section's captions of the two figures
    for (const auto& block : section.blocks)
        if (const auto* fig = std::get_if<report::FigureBlock>(&block)) {
            if (fig->kind == report::FigureKind::GraphPlacement)
                textA = qs(fig->caption);
            else if (fig->kind == report::FigureKind::GraphPadding)
                textB = qs(fig->caption);
        }

    // Side by side suits a tall graph, one above the other a wide one (detection heads, post-processing):
    // take whichever draws the boxes larger.
    const double colW = (flow_.width() - gap) / 2;
    // Caption room reserved before the captions are final (a stretch note may add a line).
    const TextBox probeA = makeText(textA, fonts_.italic, colW),
                  probeB = makeText(textB, fonts_.italic, colW);
    const TextBox probeWide = makeText(textB, fonts_.italic, flow_.width());
    const double capRoom = std::max(probeA.height(), probeB.height()) + pt(12);
    const double sideH = flow_.remaining() - legendH - capRoom - pt(12);
    const double stackH = (flow_.remaining() - 2 * legendH - 2 * (probeWide.height() + pt(12)) - pt(24)) / 2;
    const QRectF sideArea(0, 0, colW - 2 * inset, sideH - 2 * inset);
    const QRectF stackArea(0, 0, flow_.width() - 2 * inset, stackH - 2 * inset);
    const bool stacked =
        stackH > 0 && painter.thumbnailFit(stackArea) > 1.15 * painter.thumbnailFit(sideArea);

    const double stretch = painter.thumbnailStretch(stacked ? stackArea : sideArea);
    if (stretch > 1.05) {
        const QString note =
            QStringLiteral(" Drawn %1x taller than its true shape to fit the page.").arg(stretch, 0, 'f', 1);
        textA += note;
        textB += note;
    }
    const TextBox capA = makeText(textA, fonts_.italic, colW), capB = makeText(textB, fonts_.italic, colW);
    const double capH = std::max(capA.height(), capB.height());
    const TextBox wideA = makeText(textA, fonts_.italic, flow_.width());
    const TextBox wideB = makeText(textB, fonts_.italic, flow_.width());
    const auto colorA = placementColoring(o), colorB = paddingColoring(o);
    const QFont legendFont = fonts_.tiny;
    // The frame hugs the drawing: a graph that is wide for its length leaves the rest of the page free.
    auto usedHeight = [&](const QRectF& area) {
        return std::min(area.height(), painter.thumbnailSize(area).height()) + 2 * inset;
    };
    if (!stacked) {
        const double areaH = usedHeight(sideArea);
        const double x = flow_.left(), y = flow_.y();
        flow_.add([sceneData, colorA, colorB, capA, capB, x, y, colW, gap, areaH, legendH, legendFont,
                   inset](QPainter& p) {
            const GraphOverviewPainter painter(sceneData);
            for (int i = 0; i < 2; ++i) {
                const NodeColoring& coloring = i == 0 ? *colorA : *colorB;
                const double cx = x + i * (colW + gap);
                GraphOverviewPainter::paintLegend(p, QPointF(cx, y), colW, coloring, legendFont);
                const QRectF area(cx, y + legendH, colW, areaH);
                p.setPen(QPen(line(), 0.6));
                p.setBrush(Qt::NoBrush);
                p.drawRect(area);
                painter.paintThumbnail(p, area.adjusted(inset, inset, -inset, -inset), coloring);
                (i == 0 ? capA : capB).draw(p, QPointF(cx, area.bottom() + 4), muted());
            }
        });
        flow_.advance(legendH + areaH + capH + 4);
        flow_.advance(pt(12));
        return;
    }
    const double areaH = usedHeight(stackArea);
    for (int i = 0; i < 2; ++i) {
        const TextBox& cap = i == 0 ? wideA : wideB;
        const auto coloring = i == 0 ? colorA : colorB;
        flow_.ensure(legendH + areaH + cap.height() + 4);
        const double x = flow_.left(), y = flow_.y(), w = flow_.width();
        flow_.add([sceneData, coloring, cap, x, y, w, areaH, legendH, legendFont, inset](QPainter& p) {
            GraphOverviewPainter::paintLegend(p, QPointF(x, y), w, *coloring, legendFont);
            const QRectF area(x, y + legendH, w, areaH);
            p.setPen(QPen(line(), 0.6));
            p.setBrush(Qt::NoBrush);
            p.drawRect(area);
            GraphOverviewPainter(sceneData).paintThumbnail(p, area.adjusted(inset, inset, -inset, -inset),
                                                           *coloring);
            cap.draw(p, QPointF(x, area.bottom() + 4), muted());
        });
        flow_.advance(legendH + areaH + cap.height() + 4);
        flow_.advance(pt(12));
    }
}

std::shared_ptr<const SceneData> PdfComposer::focusScene() {
    const report::GraphOverview& o = doc_.overview;
    if (!focusScene_ && o.focusGraph) {
        SceneRequest request;
        request.graph = o.focusGraph;
        for (NodeId id : o.focusSource)
            request.groupOf.push_back(id.value < o.groupOf.size() ? o.groupOf[id.value] : -1);
        focusScene_ = buildSceneData(request);
    }
    return focusScene_;
}

void PdfComposer::hotspotFigure(const report::FigureBlock& f) {
    // The neighbourhood laid out on its own (GraphOverview::focusGraph), so its boxes are as close as their
    // edges allow wherever they sit in the whole model.
    const auto sceneData = focusScene();
    const report::GraphOverview& o = doc_.overview;
    if (!sceneData || sceneData->boxes.empty() || o.focusSource.empty())
        return;
    std::vector<NodeId> nodes;
    NodeId focus;
    for (size_t i = 0; i < o.focusSource.size(); ++i) {
        nodes.push_back(NodeId(static_cast<uint32_t>(i)));
        if (o.focusSource[i] == o.focus)
            focus = nodes.back();
    }
    const TextBox caption = makeText(qs(f.caption), fonts_.italic, flow_.width());
    const double legendH = pt(14);
    const QFont font = fonts_.tiny, legendFont = fonts_.tiny;
    // As tall as the neighbourhood needs at a readable scale, within a third and 70% of a page.
    const double needed = GraphOverviewPainter(sceneData).zoomHeight(flow_.width(), nodes, font, device_);
    const double areaH = std::clamp(needed, flow_.content().height() * 0.3, flow_.content().height() * 0.7);
    flow_.ensure(legendH + areaH + caption.height() + pt(3));
    const double x = flow_.left(), y = flow_.y(), w = flow_.width();
    const auto coloring = latencyColoring(o, o.focusSource);
    flow_.add([sceneData, coloring, nodes, focus, font, legendFont, x, y, w, areaH, legendH](QPainter& p) {
        GraphOverviewPainter::paintLegend(p, QPointF(x, y), w, *coloring, legendFont);
        GraphOverviewPainter(sceneData).paintZoom(p, QRectF(x, y + legendH, w, areaH), *coloring, nodes,
                                                  focus, font);
    });
    flow_.advance(legendH + areaH);
    flow_.advance(pt(3));
    flow_.flowText(caption, flow_.left(), muted());
    flow_.advance(pt(10));
}

} // namespace bpu::ui
