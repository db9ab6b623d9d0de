// SPDX-License-Identifier: MIT
#include "GraphOverviewPainter.h"

#include "ui/graph/NodeColoring.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace bpu::ui {

namespace {

constexpr double kColumnGap = 10; // device units between thumbnail columns
constexpr int kMaxColumns = 12;
constexpr double kMinBoxSide = 1.6; // device units: smaller thumbnail boxes are drawn this size
constexpr double kZoomBoxLines = 4; // a zoomed box is at most this many text lines tall
// A huge graph whose boxes come out this small (device units, median box height) may be stretched
// vertically, up to kMaxStretch, to use the area: at that size colour bands matter more than box shapes.
constexpr double kStretchBelow = 4;
constexpr double kMaxStretch = 3;

/// An edge's extent, padded: a straight vertical edge has a zero-width bounding rect, which
/// QRectF::intersects never reports as intersecting anything.
QRectF edgeBounds(const SceneEdge& e) {
    return e.points.boundingRect().adjusted(-1, -1, 1, 1);
}

QColor boxFill(const SceneBox& box, const NodeColoring& coloring) {
    return box.members.size() > 1 ? coloring.groupColor(box.members) : coloring.color(box.members.front());
}

} // namespace

GraphOverviewPainter::GraphOverviewPainter(std::shared_ptr<const SceneData> scene)
    : scene_(std::move(scene)) {}

std::vector<GraphOverviewPainter::Strip> GraphOverviewPainter::strips(int columns) const {
    const QRectF b = scene_->bounds;
    std::vector<Strip> out;
    if (columns <= 1) {
        out.push_back({b.top(), b.bottom()});
        return out;
    }
    // Cut where no box is: candidates are the gaps just below each box bottom not covered by another box.
    std::vector<std::pair<double, double>> spans;
    spans.reserve(scene_->boxes.size());
    for (const auto& box : scene_->boxes)
        spans.emplace_back(box.rect.top(), box.rect.bottom());
    std::sort(spans.begin(), spans.end());
    std::vector<double> cuts;
    double coveredTo = b.top();
    for (const auto& [top, bottom] : spans) {
        if (top > coveredTo + 1)
            cuts.push_back((coveredTo + top) / 2);
        coveredTo = std::max(coveredTo, bottom);
    }
    double prev = b.top();
    for (int i = 1; i < columns; ++i) {
        const double target = b.top() + b.height() * i / columns;
        double best = target;
        double bestDist = 1e300;
        for (double c : cuts)
            if (c > prev && std::fabs(c - target) < bestDist) {
                best = c;
                bestDist = std::fabs(c - target);
            }
        out.push_back({prev, best});
        prev = best;
    }
    out.push_back({prev, b.bottom()});
    return out;
}

double GraphOverviewPainter::thumbnailScale(const QRectF& area, int columns) const {
    const QRectF b = scene_->bounds;
    if (b.width() <= 0 || b.height() <= 0)
        return 1;
    double tallest = 0;
    for (const Strip& s : strips(columns))
        tallest = std::max(tallest, s.bottom - s.top);
    const double sx = (area.width() - kColumnGap * (columns - 1)) / (columns * b.width());
    const double sy = area.height() / tallest;
    return std::min(sx, sy);
}

int GraphOverviewPainter::thumbnailColumns(const QRectF& area) const {
    int best = 1;
    double bestScale = 0;
    for (int k = 1; k <= kMaxColumns; ++k) {
        const double s = thumbnailScale(area, k);
        if (s > bestScale * 1.05) { // a column more only when it clearly helps
            best = k;
            bestScale = s;
        }
    }
    return best;
}

double GraphOverviewPainter::thumbnailFit(const QRectF& area) const {
    if (!scene_ || scene_->boxes.empty())
        return 0;
    return thumbnailScale(area, thumbnailColumns(area));
}

double GraphOverviewPainter::thumbnailStretch(const QRectF& area) const {
    if (!scene_ || scene_->boxes.empty())
        return 1;
    const int columns = thumbnailColumns(area);
    const double s = thumbnailScale(area, columns);
    std::vector<double> heights;
    heights.reserve(scene_->boxes.size());
    for (const auto& box : scene_->boxes)
        heights.push_back(box.rect.height());
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    if (heights[heights.size() / 2] * s >= kStretchBelow)
        return 1;
    double tallest = 0;
    for (const Strip& strip : strips(columns))
        tallest = std::max(tallest, strip.bottom - strip.top);
    return std::clamp(area.height() / (tallest * s), 1.0, kMaxStretch);
}

QSizeF GraphOverviewPainter::thumbnailSize(const QRectF& area) const {
    if (!scene_ || scene_->boxes.empty())
        return {};
    const int columns = thumbnailColumns(area);
    const double s = thumbnailScale(area, columns);
    double tallest = 0;
    for (const Strip& strip : strips(columns))
        tallest = std::max(tallest, strip.bottom - strip.top);
    return {columns * scene_->bounds.width() * s + kColumnGap * (columns - 1),
            tallest * s * thumbnailStretch(area)};
}

void GraphOverviewPainter::paintThumbnail(QPainter& p, const QRectF& area,
                                          const NodeColoring& coloring) const {
    if (!scene_ || scene_->boxes.empty())
        return;
    const int columns = thumbnailColumns(area);
    const double s = thumbnailScale(area, columns), sy = s * thumbnailStretch(area);
    const QRectF b = scene_->bounds;
    const double columnWidth = b.width() * s;
    const double used = columns * columnWidth + kColumnGap * (columns - 1);
    const double x0 = area.left() + (area.width() - used) / 2;
    const auto cut = strips(columns);

    // Scene-unit pen widths scale with the drawing; a stretched drawing would thicken horizontal edges
    // more than vertical ones, so it gets a fixed device width instead.
    QPen edgePen(QColor(150, 150, 150), sy > s ? 0.5 : std::max(0.35 / s, 0.6));
    edgePen.setCosmetic(sy > s);
    for (int c = 0; c < columns; ++c) {
        const QRectF column(x0 + c * (columnWidth + kColumnGap), area.top(), columnWidth,
                            (cut[size_t(c)].bottom - cut[size_t(c)].top) * sy);
        p.save();
        p.setClipRect(column.adjusted(-1, -1, 1, 1));
        p.translate(column.left(), column.top());
        p.scale(s, sy);
        p.translate(-b.left(), -cut[size_t(c)].top);
        const QRectF visible(b.left(), cut[size_t(c)].top, b.width(),
                             cut[size_t(c)].bottom - cut[size_t(c)].top);
        p.setPen(edgePen);
        p.setBrush(Qt::NoBrush);
        for (const auto& e : scene_->edges)
            if (e.points.size() >= 2 && edgeBounds(e).intersects(visible))
                p.drawPolyline(e.points);
        p.setPen(Qt::NoPen);
        const double minW = kMinBoxSide / s, minH = kMinBoxSide / sy;
        for (const auto& box : scene_->boxes)
            if (box.rect.intersects(visible)) {
                QRectF r = box.rect;
                if (r.width() < minW)
                    r.adjust(-(minW - r.width()) / 2, 0, (minW - r.width()) / 2, 0);
                if (r.height() < minH)
                    r.adjust(0, -(minH - r.height()) / 2, 0, (minH - r.height()) / 2);
                p.setBrush(boxFill(box, coloring));
                p.drawRect(r);
            }
        p.restore();
        if (c + 1 < columns) {
            p.setPen(QPen(QColor(200, 200, 200), 0.8, Qt::DotLine));
            const double x = column.right() + kColumnGap / 2;
            p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        }
    }
}

QRectF GraphOverviewPainter::neighbourhoodRect(const std::vector<NodeId>& nodes) const {
    QRectF view;
    for (NodeId id : nodes) {
        const int box = id.value < scene_->boxOfNode.size() ? scene_->boxOfNode[id.value] : -1;
        if (box >= 0)
            view = view.isNull() ? scene_->boxes[size_t(box)].rect
                                 : view.united(scene_->boxes[size_t(box)].rect);
    }
    return view.isNull() ? view : view.adjusted(-40, -30, 40, 30);
}

double GraphOverviewPainter::maxZoomScale(const std::vector<NodeId>& nodes, double lineHeight) const {
    std::vector<double> heights;
    for (NodeId id : nodes) {
        const int box = id.value < scene_->boxOfNode.size() ? scene_->boxOfNode[id.value] : -1;
        if (box >= 0)
            heights.push_back(scene_->boxes[size_t(box)].rect.height());
    }
    if (heights.empty())
        return 1;
    std::nth_element(heights.begin(), heights.begin() + heights.size() / 2, heights.end());
    return kZoomBoxLines * lineHeight / std::max(1.0, heights[heights.size() / 2]);
}

double GraphOverviewPainter::zoomHeight(double width, const std::vector<NodeId>& nodes, const QFont& font,
                                        QPaintDevice* device) const {
    if (!scene_ || scene_->boxes.empty())
        return 0;
    const QRectF view = neighbourhoodRect(nodes);
    if (view.isNull())
        return 0;
    const double s =
        std::min(width / view.width(), maxZoomScale(nodes, QFontMetricsF(font, device).height()));
    return view.height() * s;
}

void GraphOverviewPainter::paintZoom(QPainter& p, const QRectF& area, const NodeColoring& coloring,
                                     const std::vector<NodeId>& nodes, NodeId focus,
                                     const QFont& font) const {
    if (!scene_ || scene_->boxes.empty() || nodes.empty())
        return;
    const QRectF hood = neighbourhoodRect(nodes);
    if (hood.isNull())
        return;
    const QFontMetricsF fm(font, p.device());
    // Fit the neighbourhood, but no closer than a readable box size; the view then grows around its centre
    // to fill the area, showing the surrounding graph for context.
    const double s = std::min(
        {area.width() / hood.width(), area.height() / hood.height(), maxZoomScale(nodes, fm.height())});
    const QSizeF viewSize(area.width() / s, area.height() / s);
    const QRectF view(hood.center() - QPointF(viewSize.width() / 2, viewSize.height() / 2), viewSize);
    auto map = [&](const QRectF& r) {
        return QRectF(area.left() + (r.left() - view.left()) * s, area.top() + (r.top() - view.top()) * s,
                      r.width() * s, r.height() * s);
    };
    std::vector<bool> near(scene_->boxes.size(), false);
    for (NodeId id : nodes)
        if (id.value < scene_->boxOfNode.size() && scene_->boxOfNode[id.value] >= 0)
            near[size_t(scene_->boxOfNode[id.value])] = true;

    p.save();
    p.setClipRect(area);
    p.setPen(QPen(QColor(220, 220, 220), 0.8));
    p.setBrush(QColor(252, 252, 252));
    p.drawRect(area);
    p.save();
    p.translate(area.left(), area.top());
    p.scale(s, s);
    p.translate(-view.left(), -view.top());
    const QColor edgeNear(120, 120, 120), edgeFar(205, 205, 205);
    p.setBrush(Qt::NoBrush);
    for (const auto& e : scene_->edges)
        if (e.points.size() >= 2 && edgeBounds(e).intersects(view)) {
            const bool inHood = near[size_t(e.from)] && near[size_t(e.to)];
            p.setPen(QPen(inHood ? edgeNear : edgeFar, 1.2 / s));
            p.drawPath(e.curve);
        }
    p.restore();

    // Arrowheads, boxes and text in device units so the text keeps its size whatever the zoom.
    p.setPen(Qt::NoPen);
    for (const auto& e : scene_->edges)
        if (e.points.size() >= 2 && edgeBounds(e).intersects(view)) {
            const bool inHood = near[size_t(e.from)] && near[size_t(e.to)];
            p.setBrush(inHood ? edgeNear : edgeFar);
            const QPointF t = map(QRectF(e.points.back(), QSizeF(0, 0))).topLeft();
            const double a = 3.2;
            p.drawPolygon(QPolygonF{t, t + QPointF(-a, -2 * a), t + QPointF(a, -2 * a)});
        }
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF bfm(bold, p.device());
    const int focusBox =
        focus.valid() && focus.value < scene_->boxOfNode.size() ? scene_->boxOfNode[focus.value] : -1;
    for (size_t i = 0; i < scene_->boxes.size(); ++i) {
        const SceneBox& box = scene_->boxes[i];
        if (!box.rect.intersects(view))
            continue;
        const QRectF r = map(box.rect);
        QColor fill = boxFill(box, coloring);
        if (!near[i]) // context outside the neighbourhood: faded, so the eye stays on the hotspot
            fill = QColor::fromRgbF(0.7 + 0.3 * fill.redF(), 0.7 + 0.3 * fill.greenF(),
                                    0.7 + 0.3 * fill.blueF());
        const bool isFocus = int(i) == focusBox;
        p.setPen(isFocus ? QPen(Qt::black, 2.4) : QPen(fill.darker(140), 0.7));
        p.setBrush(fill);
        p.drawRoundedRect(r, 2.5, 2.5);
        if (r.height() < fm.height() * 1.1)
            continue;
        p.setPen(near[i] ? palette::textOn(fill) : QColor(110, 110, 110));
        const QRectF inner = r.adjusted(3, 1, -3, -1);
        const bool twoLines = r.height() >= fm.height() * 2.1;
        p.setFont(bold);
        const QString title = bfm.elidedText(box.title, Qt::ElideRight, inner.width());
        if (twoLines) {
            p.drawText(QRectF(inner.left(), inner.top(), inner.width(), inner.height() / 2),
                       Qt::AlignHCenter | Qt::AlignBottom, title);
            p.setFont(font);
            p.drawText(QRectF(inner.left(), inner.center().y(), inner.width(), inner.height() / 2),
                       Qt::AlignHCenter | Qt::AlignTop,
                       fm.elidedText(box.name, Qt::ElideLeft, inner.width()));
        } else {
            p.drawText(inner, Qt::AlignCenter, title);
        }
    }
    p.restore();
}

double GraphOverviewPainter::paintLegend(QPainter& p, QPointF topLeft, double width,
                                         const NodeColoring& coloring, const QFont& font) {
    const QFontMetricsF fm(font, p.device());
    const double h = fm.height();
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF bfm(bold, p.device());
    double x = topLeft.x();
    const double y = topLeft.y(), right = topLeft.x() + width;
    p.setFont(bold);
    p.setPen(Qt::black);
    const QString title = coloring.legendTitle() + QStringLiteral(":");
    p.drawText(QRectF(x, y, bfm.horizontalAdvance(title) + 2, h), Qt::AlignLeft | Qt::AlignVCenter, title);
    x += bfm.horizontalAdvance(title) + 8;
    p.setFont(font);
    auto label = [&](const QString& text) {
        const double w = fm.horizontalAdvance(text);
        p.setPen(Qt::black);
        p.drawText(QRectF(x, y, w + 2, h), Qt::AlignLeft | Qt::AlignVCenter, text);
        x += w + 4;
    };
    auto swatch = [&](const QColor& color) {
        p.setPen(QPen(color.darker(140), 0.6));
        p.setBrush(color);
        p.drawRect(QRectF(x, y + h * 0.15, h * 0.9, h * 0.7));
        x += h * 0.9 + 1;
    };
    auto rows = coloring.legend();
    if (dynamic_cast<const HeatColoring*>(&coloring) && rows.size() >= 2) {
        // A ramp, read low to high: "0% [] [] [] [] [] 100%   [] n/a" (the legend lists high first, n/a
        // last).
        const auto na = rows.back();
        rows.pop_back();
        std::reverse(rows.begin(), rows.end());
        label(rows.front().first);
        for (const auto& r : rows)
            swatch(r.second);
        x += 3;
        label(rows.back().first);
        x += 8;
        swatch(na.second);
        x += 2;
        label(na.first);
        return h;
    }
    for (const auto& [text, color] : rows) {
        if (x + h + fm.horizontalAdvance(text) > right)
            break;
        swatch(color);
        x += 2;
        if (!text.isEmpty())
            label(text);
        x += 6;
    }
    return h;
}

} // namespace bpu::ui
