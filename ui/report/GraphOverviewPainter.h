// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Ids.h"
#include "ui/graph/SceneData.h"

#include <QFont>
#include <QRectF>
#include <QSizeF>
#include <memory>
#include <vector>

class QPainter;
class QPaintDevice;

namespace bpu::ui {

class NodeColoring;

/// Draws the model graph for the report from a SceneData (the graph view's own layout, built off the GUI
/// thread) straight into a QPainter, so it works on a worker thread and stays vector on a PDF.
class GraphOverviewPainter {
public:
    explicit GraphOverviewPainter(std::shared_ptr<const SceneData> scene);

    /// The whole model fitted into `area`. A tall layout is cut between layers into side-by-side columns
    /// (read left to right) so boxes stay as large as possible. Boxes only, no text; a box too small to see
    /// is drawn at a minimum size so its colour still shows.
    void paintThumbnail(QPainter& p, const QRectF& area, const NodeColoring& coloring) const;
    /// The size paintThumbnail() actually covers inside `area` (centred horizontally, from the top).
    QSizeF thumbnailSize(const QRectF& area) const;
    /// How much taller than its true aspect paintThumbnail() draws a huge graph in `area` (1 = not at all;
    /// only when boxes would be a few device units tall, at most 3).
    double thumbnailStretch(const QRectF& area) const;
    /// The horizontal scale (device units per scene unit) paintThumbnail() uses for `area`.
    double thumbnailFit(const QRectF& area) const;
    /// The region around `nodes` in `area` with op types and names, `focus` outlined. The scale is capped
    /// so a box is about `maxBoxTextLines` text lines of `font` tall (a small neighbourhood is not blown
    /// up); the rest of the area shows the surrounding graph, faded.
    void paintZoom(QPainter& p, const QRectF& area, const NodeColoring& coloring,
                   const std::vector<NodeId>& nodes, NodeId focus, const QFont& font) const;
    /// The height paintZoom() needs at `width` to show all of `nodes` at its capped scale (measured with
    /// `font` on `device`).
    double zoomHeight(double width, const std::vector<NodeId>& nodes, const QFont& font,
                      QPaintDevice* device) const;
    /// A one-line legend (title and swatches) at `topLeft`, at most `width` wide; returns its height.
    static double paintLegend(QPainter& p, QPointF topLeft, double width, const NodeColoring& coloring,
                              const QFont& font);
    /// Columns the thumbnail uses for `area` (for tests and captions).
    int thumbnailColumns(const QRectF& area) const;

private:
    struct Strip {
        double top, bottom;
    };
    std::vector<Strip> strips(int columns) const;
    double thumbnailScale(const QRectF& area, int columns) const;
    /// Scene rect of the boxes of `nodes`, with a margin; null when none has a box.
    QRectF neighbourhoodRect(const std::vector<NodeId>& nodes) const;
    /// The zoom's scale cap: a typical box of `nodes` about kZoomBoxLines text lines of `lineHeight` tall.
    double maxZoomScale(const std::vector<NodeId>& nodes, double lineHeight) const;

    std::shared_ptr<const SceneData> scene_;
};

} // namespace bpu::ui
