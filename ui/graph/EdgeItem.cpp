// SPDX-License-Identifier: MIT
#include "EdgeItem.h"

#include "PaintCache.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace bpu::ui {

namespace {
constexpr double kArrow = 7;   // arrowhead length, scene units
constexpr double kDiamond = 7; // marker half-diagonal
constexpr double kArrowLod = 0.5;
} // namespace

EdgeItem::EdgeItem(int edge, const SceneEdge* data)
    : edge_(edge)
    , data_(data)
    , bounds_(
          data->curve.controlPointRect().adjusted(-kDiamond - 2, -kDiamond - 2, kDiamond + 2, kDiamond + 2)) {
    setZValue(0);
}

void EdgeItem::setMarked(bool marked) {
    if (marked_ != marked) {
        marked_ = marked;
        update();
    }
}

void EdgeItem::setActive(bool active) {
    if (active_ != active) {
        active_ = active;
        setZValue(active ? 0.5 : 0);
        update();
    }
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const auto& pc = PaintCache::instance();
    const QPolygonF& pts = data_->points;
    if (pts.size() < 2)
        return;
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    // An edge shorter than a pixel on screen would only darken the (at least one pixel) boxes it joins.
    if (!active_ && lod * (bounds_.height() - 2 * (kDiamond + 2)) < 1.0)
        return;
    painter->setPen(active_ ? pc.edgeActivePen() : pc.edgePen());
    painter->setBrush(Qt::NoBrush);
    if (lod < kCurveLod)
        painter->drawPolyline(pts);
    else
        painter->drawPath(data_->curve);

    if (lod >= kArrowLod) {
        // Routes end vertically (the last piece is an S-curve or a straight drop), so the head points along
        // y.
        const QPointF tip = pts.back();
        const double dir = tip.y() >= pts[pts.size() - 2].y() ? 1 : -1;
        const QPointF head[3] = {tip, tip + QPointF(-kArrow / 2, -dir * kArrow),
                                 tip + QPointF(kArrow / 2, -dir * kArrow)};
        painter->setPen(Qt::NoPen);
        painter->setBrush(active_ ? pc.edgeActivePen().brush() : pc.edgePen().brush());
        painter->drawPolygon(head, 3);
    }
    if (marked_ && lod >= 0.15) {
        const QPointF c = data_->markAt;
        const QPointF diamond[4] = {c + QPointF(0, -kDiamond), c + QPointF(kDiamond * 0.7, 0),
                                    c + QPointF(0, kDiamond), c + QPointF(-kDiamond * 0.7, 0)};
        painter->setPen(pc.markPen());
        painter->setBrush(pc.markBrush());
        painter->drawPolygon(diamond, 4);
    }
}

GroupFrameItem::GroupFrameItem(const SceneFrame* data)
    : data_(data) {
    setZValue(-1);
}

QRectF GroupFrameItem::boundingRect() const {
    return data_->rect.adjusted(-2, -2, 2, 2);
}

void GroupFrameItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const auto& pc = PaintCache::instance();
    painter->setPen(pc.framePen());
    painter->setBrush(pc.frameBrush());
    painter->drawRoundedRect(data_->rect, 6, 6);
    if (option->levelOfDetailFromTransform(painter->worldTransform()) >= 0.6) {
        painter->setPen(pc.textColor());
        painter->setFont(pc.detailFont());
        painter->drawText(data_->rect.adjusted(8, 2, -8, 0), Qt::AlignLeft | Qt::AlignTop, data_->label);
    }
}

} // namespace bpu::ui
