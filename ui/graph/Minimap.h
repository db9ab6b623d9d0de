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
};

} // namespace bpu::ui
