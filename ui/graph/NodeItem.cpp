// SPDX-License-Identifier: MIT
#include "NodeItem.h"

#include "NodeColoring.h"
#include "PaintCache.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>

namespace bpu::ui {

namespace {
constexpr double kPad = 6;    // text inset
constexpr double kHalo = 9;   // search-match halo outside the box
constexpr double kTinyPx = 6; // below this width on screen a box is just a filled rect
constexpr double kSmallLod = 0.3;

QStaticText staticText(const QString& s, const QFont& font, double width, Qt::TextElideMode mode) {
    QStaticText t(QFontMetricsF(font).elidedText(s, mode, width));
    t.setTextFormat(Qt::PlainText);
    t.setPerformanceHint(QStaticText::AggressiveCaching);
    return t;
}
} // namespace

struct NodeItem::Text {
    QStaticText title, name, detail, note;
};

NodeItem::NodeItem(int box, const SceneBox* data)
    : box_(box)
    , data_(data)
    , size_(data->rect.size())
    , fill_(palette::unknown()) {
    setPos(data->rect.topLeft());
    setZValue(1);
}

NodeItem::~NodeItem() = default;

QRectF NodeItem::boundingRect() const {
    return QRectF(QPointF(0, 0), size_).adjusted(-kHalo - 1, -kHalo - 1, kHalo + 1, kHalo + 1);
}

void NodeItem::setFill(const QColor& color) {
    fill_ = PaintCache::instance().brush(color.rgba());
    ink_ = palette::textOn(color);
    update();
}

void NodeItem::setMatched(bool matched) {
    if (matched_ != matched) {
        matched_ = matched;
        update();
    }
}

void NodeItem::setNote(const QString& note) {
    if (note_ != note) {
        note_ = note;
        text_.reset(); // laid out again on the next paint
        update();
    }
}

void NodeItem::setCurrent(bool current) {
    if (current_ != current) {
        current_ = current;
        update();
    }
}

const NodeItem::Text& NodeItem::text() const {
    if (!text_) {
        const auto& pc = PaintCache::instance();
        const double w = size_.width() - 2 * kPad;
        text_ = std::make_unique<Text>();
        text_->title = staticText(data_->title, pc.titleFont(), w, Qt::ElideRight);
        text_->name = staticText(data_->name, pc.detailFont(), w, Qt::ElideMiddle);
        text_->detail = staticText(data_->detail, pc.detailFont(), w, Qt::ElideRight);
        text_->note = staticText(note_, pc.detailFont(), w, Qt::ElideRight);
    }
    return *text_;
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    auto& pc = PaintCache::instance();
    const double lod = option->levelOfDetailFromTransform(painter->worldTransform());
    const QRectF r(QPointF(0, 0), size_);

    if (lod * size_.width() < kTinyPx || lod < kSmallLod) {
        // Tiny and small: no outline; matches and the selection take over the fill so they stay visible.
        const QBrush& b = current_ ? pc.currentBrush() : matched_ ? pc.matchBrush() : fill_;
        if (lod * size_.width() < kTinyPx) {
            if (lod * size_.height() >= 1.5) {
                painter->fillRect(r, b);
                return;
            }
            // Below a pixel: paint one device pixel at least, so a zoomed-out 10k-node graph keeps its
            // colours instead of vanishing under its edges.
            const QTransform t = painter->worldTransform();
            QRectF d = t.mapRect(r);
            d.setSize(QSizeF(std::max(1.0, d.width()), std::max(1.0, d.height())));
            painter->setWorldTransform(QTransform());
            painter->fillRect(d, b);
            painter->setWorldTransform(t);
            return;
        }
        painter->setPen(pc.outlinePen());
        painter->setBrush(b);
        painter->drawRect(r);
        return;
    }

    if (matched_) {
        // A ring outside the box (and outside the selection ring), in scene units so it scales with the box.
        QPen halo = pc.matchPen();
        halo.setCosmetic(false);
        halo.setWidthF(kHalo - 4);
        painter->setPen(halo);
        painter->setBrush(Qt::NoBrush);
        const double mid = 4 + (kHalo - 4) / 2;
        painter->drawRect(r.adjusted(-mid, -mid, mid, mid));
    }
    painter->setPen(isGroup() ? pc.groupPen() : pc.outlinePen());
    painter->setBrush(fill_);
    painter->drawRect(r);
    if (isGroup()) {
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(r.adjusted(3, 3, -3, -3));
    }
    if (current_) {
        painter->setPen(pc.currentPen());
        painter->setBrush(Qt::NoBrush);
        const double o = 1.5 / lod; // a 3 px ring just outside the box
        painter->drawRect(r.adjusted(-o, -o, o, o));
    }
    if (lod < kTitleLod)
        return;

    const Text& t = text();
    painter->setPen(ink_);
    const double inset = isGroup() ? kPad + 2 : kPad;
    if (lod < kDetailLod || size_.height() < 40) { // compact boxes (constants) only ever show the title
        painter->setFont(pc.titleFont());
        const QSizeF ts = t.title.size();
        painter->drawStaticText(QPointF(inset, (size_.height() - ts.height()) / 2), t.title);
        return;
    }
    // The note only where the box has room for a fourth line (scope boxes are laid out taller for it).
    const int lines = !note_.isEmpty() && size_.height() >= 2 * 3 + 16 + 3 * 14 ? 3 : 2;
    const double lineGap = (size_.height() - 2 * 3 - 16 - lines * 14) / 2;
    double y = 3 + std::max(0.0, lineGap);
    painter->setFont(pc.titleFont());
    painter->drawStaticText(QPointF(inset, y), t.title);
    y += 16;
    painter->setFont(pc.detailFont());
    painter->drawStaticText(QPointF(inset, y), t.name);
    y += 14;
    painter->drawStaticText(QPointF(inset, y), t.detail);
    if (lines == 3)
        painter->drawStaticText(QPointF(inset, y + 14), t.note);
}

} // namespace bpu::ui
