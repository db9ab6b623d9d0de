// SPDX-License-Identifier: MIT
#pragma once

#include "core/layout/LayeredLayout.h"
#include "core/model/Graph.h"
#include "core/util/Progress.h"

#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <map>
#include <memory>
#include <set>
#include <vector>

namespace bpu::ui {

/// One box on the canvas: a node, or a collapsed group of nodes.
struct SceneBox {
    std::vector<NodeId> members; ///< in topological order
    int group = -1;              ///< the collapsed group it stands for, or -1
    QRectF rect;
    QString title;  ///< op type, or the group's op types ("Conv+Sigmoid+Mul")
    QString name;   ///< node name, or the group's first member's name
    QString detail; ///< output shape ("1x64x80x80"), with the member count for a group
};

/// One edge between two boxes, routed by the layout.
struct SceneEdge {
    int from = -1;
    int to = -1;
    QPolygonF points;              ///< the layout's polyline, for low zoom
    QPainterPath curve;            ///< smoothed route (cubic in the gaps between layers), for normal zoom
    QPointF markAt;                ///< where a marker diamond goes (middle of the last gap)
    std::vector<TensorId> tensors; ///< tensors this edge carries
};

/// The dashed frame around the members of an expanded group.
struct SceneFrame {
    int group = -1;
    QRectF rect;
    QString label;
};

/// Everything the scene draws, computed off the GUI thread from a graph snapshot and never changed after.
struct SceneData {
    std::vector<SceneBox> boxes;
    std::vector<SceneEdge> edges;
    std::vector<SceneFrame> frames;
    std::vector<int> boxOfNode; ///< per graph node
    QRectF bounds;              ///< fixed scene rect (layout extent plus a margin)
    layout::Stats stats;
    double msLayout = 0; ///< wall time of buildSceneData
};

/// What a layout run needs, snapshotted on the GUI thread and passed by value to the worker.
struct SceneRequest {
    std::shared_ptr<const Graph> graph;
    std::vector<int> groupOf; ///< per node: group id, or -1 (empty: no groups)
    std::set<int> expanded;   ///< groups drawn as their members inside a frame instead of one box
    Progress progress;        ///< the layout job's cancel flag (a newer layout supersedes this one)
    std::map<int, QString>
        groupLabels; ///< titles of named groups (collapsed name scopes); others list op types
};

/// Runs the layered layout and derives boxes, routes and frames. Thread-safe (touches no GUI state).
std::shared_ptr<const SceneData> buildSceneData(const SceneRequest& request);

} // namespace bpu::ui
