// SPDX-License-Identifier: MIT
#include "Minimap.h"

#include "ui/style/Palette.h"

#include "GraphScene.h"
#include "GraphView.h"
#include "NodeItem.h"
#include "PaintCache.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

namespace bpu::ui {

namespace {
constexpr int kMaxW = 160;
constexpr int kMaxH = 260;
constexpr int kMinSide = 48; // the short side is stretched to at least this
constexpr int kBorder = 3;
} // namespace

Minimap::Minimap(GraphView* view)
    : QWidget(view)
    , view_(view) {
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
}

QSize Minimap::sizeHint() const {
    if (image_.isNull())
        return {0, 0};
    return image_.size() + QSize(2 * kBorder, 2 * kBorder);
}

void Minimap::rebuild() {
    const SceneData* data = view_->graphScene()->sceneData();
    if (!data || data->boxes.empty() || data->bounds.isEmpty()) {
        image_ = QImage();
        hide();
        return;
    }
    const QRectF b = data->bounds;
    const int availH = std::max(kMinSide, std::min(kMaxH, view_->viewport()->height() / 2));
    const double s = std::min(kMaxW / b.width(), availH / b.height());
    const double sx = std::max(s, std::min<double>(kMaxW, kMinSide) / b.width());
    const double sy = std::max(s, std::min<double>(availH, kMinSide) / b.height());
    const QSize size(std::max(1, int(b.width() * sx)), std::max(1, int(b.height() * sy)));
    toMap_ = QTransform::fromTranslate(-b.left(), -b.top()) * QTransform::fromScale(sx, sy) *
             QTransform::fromTranslate(kBorder, kBorder);

    image_ = QImage(size, QImage::Format_ARGB32_Premultiplied);
    image_.fill(PaintCache::instance().background());
    QPainter p(&image_);
    const QTransform toImage = QTransform::fromTranslate(-b.left(), -b.top()) * QTransform::fromScale(sx, sy);
    for (const NodeItem* item : view_->graphScene()->nodeItems()) {
        QRectF r = toImage.mapRect(item->data().rect);
        r.setWidth(std::max(1.0, r.width()));
        r.setHeight(std::max(1.0, r.height()));
        p.fillRect(r, item->fill());
    }
    p.end();
    resize(sizeHint());
    setVisible(wanted_);
    raise();
    update();
}

void Minimap::setWanted(bool wanted) {
    wanted_ = wanted;
    setVisible(wanted_ && !image_.isNull());
}

void Minimap::paintEvent(QPaintEvent*) {
    if (image_.isNull())
        return;
    QPainter p(this);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(palette().color(QPalette::Window));
    p.drawRect(rect().adjusted(0, 0, -1, -1));
    p.drawImage(kBorder, kBorder, image_);
    const GraphScene* scene = view_->graphScene();
    // Matches as short ticks on both sides, the selection as a ring: visible even where boxes are sub-pixel.
    p.setPen(QPen(style::searchMatch(), 2));
    for (NodeId id : view_->matches())
        if (const NodeItem* item = scene->itemForNode(id)) {
            const QPointF c = toMap_.map(item->data().rect.center());
            p.drawLine(QPointF(1, c.y()), QPointF(kBorder + 4, c.y()));
            p.drawLine(QPointF(width() - kBorder - 5, c.y()), QPointF(width() - 1, c.y()));
        }
    if (const NodeItem* item = scene->itemForNode(view_->selectedNode())) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(toMap_.map(item->data().rect.center()), 4, 4);
    }
    const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    QRectF frame = toMap_.mapRect(visible).intersected(QRectF(rect()).adjusted(1, 1, -1, -1));
    frame.setWidth(std::max(frame.width(), 3.0));
    frame.setHeight(std::max(frame.height(), 3.0));
    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlphaF(0.18f);
    p.setPen(QPen(palette().color(QPalette::Highlight), 1));
    p.setBrush(fill);
    p.drawRect(frame);
}

void Minimap::centerViewAt(const QPointF& widgetPos) {
    view_->centerOn(toMap_.inverted().map(widgetPos));
}

void Minimap::mousePressEvent(QMouseEvent* e) {
    centerViewAt(e->position());
}

void Minimap::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton)
        centerViewAt(e->position());
}

} // namespace bpu::ui
