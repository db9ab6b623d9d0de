// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Ids.h"
#include "ui/graph/SceneData.h"

#include <QFont>
#include <QRectF>
#include <memory>
#include <vector>

class QPainter;

namespace bpu::ui {

class NodeColoring;

/// Draws the model graph for the report from a SceneData (the graph view's own layout, built off the GUI
/// thread) straight into a QPainter, so it works on a worker thread and stays vector on a PDF.
class GraphOverviewPainter {
public:
    explicit GraphOverviewPainter(std::shared_ptr<const SceneData> scene);

    /// The whole model fitted into `area`. A tall layout is cut between layers into side-by-side columns
    /// (read left to right) so boxes stay as large as possible. Boxes only, no text.
    void paintThumbnail(QPainter& p, const QRectF& area, const NodeColoring& coloring) const;
    /// The region around `nodes` fitted into `area` with op types and names, `focus` outlined.
    void paintZoom(QPainter& p, const QRectF& area, const NodeColoring& coloring,
                   const std::vector<NodeId>& nodes, NodeId focus, const QFont& font) const;
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

    std::shared_ptr<const SceneData> scene_;
};

} // namespace bpu::ui
