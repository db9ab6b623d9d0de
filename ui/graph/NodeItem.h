// SPDX-License-Identifier: MIT
#pragma once

#include "SceneData.h"

#include <QBrush>
#include <QGraphicsItem>
#include <QStaticText>
#include <memory>

namespace bpu::ui {

/// One box of the graph: a node or a collapsed group. Painting depends on the zoom (level of detail): a
/// filled rectangle when tiny, box and colour when small, op type when readable, then name and shape. Text
/// layouts are cached per item. Construction is thread-safe (no GUI state); setters are GUI-thread only.
class NodeItem : public QGraphicsItem {
public:
    enum { Type = QGraphicsItem::UserType + 101 };

    /// `box` indexes `data.boxes`; the item keeps a pointer into `data`, which must outlive it.
    NodeItem(int box, const SceneBox* data);
    ~NodeItem() override;

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    int box() const { return box_; }
    const SceneBox& data() const { return *data_; }
    bool isGroup() const { return data_->group >= 0; }

    void setFill(const QColor& color);
    QColor fill() const { return fill_.color(); }
    void setMatched(bool matched);
    bool isMatched() const { return matched_; }
    void setCurrent(bool current);
    bool isCurrent() const { return current_; }
    /// A fourth line under the detail (a collapsed scope's figures: they change per snapshot, the layout's
    /// text does not); drawn when the box is tall enough.
    void setNote(const QString& note);
    const QString& note() const { return note_; }

    /// Zoom thresholds (view scale) at which text appears.
    static constexpr double kTitleLod = 0.6;
    static constexpr double kDetailLod = 0.9;

private:
    struct Text;
    const Text& text() const;

    int box_;
    const SceneBox* data_;
    QSizeF size_;
    QBrush fill_;
    QColor ink_ = Qt::black;
    bool matched_ = false;
    bool current_ = false;
    QString note_;
    mutable std::unique_ptr<Text> text_;
};

} // namespace bpu::ui
