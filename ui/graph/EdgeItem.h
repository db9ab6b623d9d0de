// SPDX-License-Identifier: MIT
#pragma once

#include "SceneData.h"

#include <QGraphicsItem>

namespace bpu::ui {

/// One routed edge. A polyline at low zoom, the smoothed route with an arrowhead at normal zoom. A "marked"
/// edge (e.g. a Q/DQ boundary) carries a small diamond; an "active" edge touches the selected box.
class EdgeItem : public QGraphicsItem {
public:
    enum { Type = QGraphicsItem::UserType + 102 };

    /// Keeps a pointer to `data`, which must outlive the item. Thread-safe construction.
    EdgeItem(int edge, const SceneEdge* data);

    int type() const override { return Type; }
    QRectF boundingRect() const override { return bounds_; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    int edge() const { return edge_; }
    const SceneEdge& data() const { return *data_; }
    void setMarked(bool marked);
    bool isMarked() const { return marked_; }
    void setActive(bool active);
    bool isActive() const { return active_; }

    static constexpr double kCurveLod = 0.35; ///< below this scale edges are drawn as plain polylines

private:
    int edge_;
    const SceneEdge* data_;
    QRectF bounds_;
    bool marked_ = false;
    bool active_ = false;
};

/// The dashed frame behind the members of an expanded group, with its label; double-click collapses it.
class GroupFrameItem : public QGraphicsItem {
public:
    enum { Type = QGraphicsItem::UserType + 103 };

    explicit GroupFrameItem(const SceneFrame* data);
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    int group() const { return data_->group; }

private:
    const SceneFrame* data_;
};

} // namespace bpu::ui
