// SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QTransform>
#include <QWidget>

namespace bpu::ui {

class GraphView;

/// Overview of the whole graph with the visible part framed; click or drag to move the view there. The
/// overview is painted once per layout / colouring into an image straight from the scene data (each box at
/// least one pixel, so a 10k-node graph still shows its shape); search matches and the selection are drawn
/// on top each paint. Very tall or wide graphs are stretched along the short axis to stay usable.
class Minimap : public QWidget {
    Q_OBJECT
public:
    explicit Minimap(GraphView* view);
    /// Re-renders the overview from the view's scene.
    void rebuild();
    /// Whether the view has room for the overview (and the user wants it): shown only then, and only with a
    /// drawing. A rebuild never shows it on its own (it used to, over a small view's graph).
    void setWanted(bool wanted);
    QSize sizeHint() const override;
    /// Scene to widget coordinates of the overview.
    const QTransform& sceneToMap() const { return toMap_; }

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;

private:
    void centerViewAt(const QPointF& widgetPos);

    GraphView* view_;
    QImage image_;
    QTransform toMap_;
    bool wanted_ = true;
};

} // namespace bpu::ui
