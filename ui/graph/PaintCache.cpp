// SPDX-License-Identifier: MIT
#include "PaintCache.h"

#include "ui/style/Palette.h"

#include <QGuiApplication>

namespace bpu::ui {

PaintCache& PaintCache::instance() {
    static PaintCache cache;
    return cache;
}

PaintCache::PaintCache() {
    title_ = QGuiApplication::font();
    title_.setPixelSize(13);
    title_.setBold(true);
    detail_ = QGuiApplication::font();
    detail_.setPixelSize(11);
    setPalette(QGuiApplication::palette());
}

void PaintCache::setPalette(const QPalette& palette) {
    background_ = palette.color(QPalette::Base);
    text_ = palette.color(QPalette::Text);
    const bool dark = background_.lightnessF() < 0.5;
    QColor edge = text_;
    edge.setAlphaF(dark ? 0.55f : 0.5f);
    edge_ = QPen(edge, 0);
    edge_.setCosmetic(true);
    edgeActive_ = QPen(palette.color(QPalette::Highlight), 2.5);
    edgeActive_.setCosmetic(true);
    outline_ = QPen(dark ? QColor(220, 220, 220) : QColor(40, 40, 40), 1);
    outline_.setCosmetic(true);
    group_ = QPen(outline_.color(), 2);
    group_.setCosmetic(true);
    frame_ = QPen(text_, 1.5, Qt::DashLine);
    frame_.setCosmetic(true);
    current_ = QPen(palette.color(QPalette::Highlight), 3);
    current_.setCosmetic(true);
    current_.setJoinStyle(Qt::MiterJoin);
    currentBrush_ = QBrush(palette.color(QPalette::Highlight));
    // Search matches: a thick yellow halo with a black core reads on every fill of both palettes.
    match_ = QPen(style::searchMatch(), 6);
    match_.setCosmetic(true);
    matchBrush_ = QBrush(style::searchMatch());
    mark_ = QPen(dark ? QColor(Qt::white) : QColor(Qt::black), 1);
    mark_.setCosmetic(true);
    markBrush_ = QBrush(style::qdqMark());
    QColor frameFill = palette.color(QPalette::Highlight);
    frameFill.setAlphaF(0.08f);
    frameBrush_ = QBrush(frameFill);
}

const QBrush& PaintCache::brush(QRgb rgb) {
    auto it = brushes_.find(rgb);
    if (it == brushes_.end())
        it = brushes_.insert(rgb, QBrush(QColor::fromRgba(rgb)));
    return it.value();
}

} // namespace bpu::ui
