// SPDX-License-Identifier: MIT
#include "SceneData.h"

#include "core/layout/GraphLayoutInput.h"

#include <QElapsedTimer>
#include <QStringList>
#include <algorithm>

namespace bpu::ui {

namespace {

constexpr double kMargin = 40;
constexpr double kNodeW = 168, kNodeH = 48;
constexpr double kGroupW = 184, kGroupH = 60;
constexpr double kScopeW = 200, kScopeH = 76; // a collapsed scope: path, op types, count, then its figures
constexpr double kConstW = 112, kConstH = 28;

/// A node computing a constant: no inputs, or only initializers (Constant, an Identity sharing a bias).
/// Drawn as a small box: detection models carry hundreds of them.
bool isConstantLike(const Graph& g, const Node& n) {
    for (TensorId t : n.inputs)
        if (t.valid() && !g.tensor(t).isInitializer)
            return false;
    return true;
}
constexpr double kFramePad = 10;

QString outputShape(const Graph& g, const Node& n) {
    QString text;
    int outputs = 0;
    for (TensorId t : n.outputs) {
        if (!t.valid())
            continue;
        if (outputs++ == 0)
            text = QString::fromStdString(g.tensor(t).shape.toString());
    }
    if (outputs > 1)
        text += QStringLiteral("  (+%1)").arg(outputs - 1);
    return text;
}

QString groupTitle(const Graph& g, const std::vector<NodeId>& members) {
    QStringList ops;
    for (NodeId m : members) {
        const QString op = QString::fromStdString(g.node(m).opType);
        if (!ops.contains(op))
            ops.append(op);
    }
    if (ops.size() > 3)
        return ops.mid(0, 3).join(QLatin1Char('+')) + QStringLiteral("+\u2026");
    return ops.join(QLatin1Char('+'));
}

/// Polyline to a smooth path: straight through layer bands, an S-curve across each gap between layers.
QPainterPath smoothRoute(const QPolygonF& pts) {
    QPainterPath path;
    if (pts.isEmpty())
        return path;
    path.moveTo(pts.front());
    for (qsizetype i = 1; i < pts.size(); ++i) {
        const QPointF a = pts[i - 1], b = pts[i];
        if (a.x() == b.x()) {
            path.lineTo(b);
        } else {
            const double my = (a.y() + b.y()) / 2;
            path.cubicTo(QPointF(a.x(), my), QPointF(b.x(), my), b);
        }
    }
    return path;
}

} // namespace

std::shared_ptr<const SceneData> buildSceneData(const SceneRequest& request) {
    QElapsedTimer timer;
    timer.start();
    auto data = std::make_shared<SceneData>();
    if (!request.graph)
        return data;
    const Graph& g = *request.graph;

    std::vector<int> groupOf = request.groupOf;
    groupOf.resize(g.nodes.size(), -1);
    for (int& grp : groupOf)
        if (grp >= 0 && request.expanded.count(grp))
            grp = -1;

    const layout::GraphLayoutInput in =
        layout::buildGraphLayoutInput(g, groupOf, [&g, &groupOf, &request](const auto& members) {
            if (members.size() > 1)
                return request.groupLabels.count(groupOf[members.front().value])
                           ? layout::Size{kScopeW, kScopeH}
                           : layout::Size{kGroupW, kGroupH};
            return isConstantLike(g, g.node(members.front())) ? layout::Size{kConstW, kConstH}
                                                              : layout::Size{kNodeW, kNodeH};
        });
    layout::Options options;
    options.progress = request.progress;
    const layout::Result r = layout::layeredLayout(in.input, options);
    data->stats = r.stats;
    data->boxOfNode = in.boxOfNode;

    data->boxes.resize(in.membersOfBox.size());
    for (size_t b = 0; b < in.membersOfBox.size(); ++b) {
        SceneBox& box = data->boxes[b];
        box.members = in.membersOfBox[b];
        box.group = in.groupOfBox[b];
        const auto& rect = r.nodes[b];
        box.rect = QRectF(rect.x, rect.y, rect.w, rect.h);
        const Node& first = g.node(box.members.front());
        if (box.group >= 0) {
            const Node& last = g.node(box.members.back());
            const auto label = request.groupLabels.find(box.group);
            // A collapsed scope is titled by its path; its op types (at least) stay on the box below it.
            box.title = label != request.groupLabels.end() ? label->second : groupTitle(g, box.members);
            box.name = label != request.groupLabels.end() ? groupTitle(g, box.members)
                                                          : QString::fromStdString(first.name);
            box.detail = QStringLiteral("\u00d7%1  %2").arg(box.members.size()).arg(outputShape(g, last));
        } else {
            box.title = QString::fromStdString(first.opType);
            box.name = QString::fromStdString(first.name);
            box.detail = outputShape(g, first);
        }
    }

    data->edges.resize(in.input.edges.size());
    for (size_t e = 0; e < in.input.edges.size(); ++e) {
        SceneEdge& edge = data->edges[e];
        edge.from = in.input.edges[e].first;
        edge.to = in.input.edges[e].second;
        edge.tensors = in.tensorsOfEdge[e];
        edge.points.reserve(static_cast<qsizetype>(r.edges[e].size()));
        for (const auto& p : r.edges[e])
            edge.points.append(QPointF(p.x, p.y));
        edge.curve = smoothRoute(edge.points);
        if (edge.points.size() >= 2)
            edge.markAt = (edge.points[edge.points.size() - 2] + edge.points.back()) / 2;
    }

    // Frames around expanded groups.
    std::vector<int> frameOf;
    for (size_t v = 0; v < g.nodes.size(); ++v) {
        const int grp = v < request.groupOf.size() ? request.groupOf[v] : -1;
        if (grp < 0 || !request.expanded.count(grp))
            continue;
        auto it = std::find(frameOf.begin(), frameOf.end(), grp);
        size_t f = static_cast<size_t>(it - frameOf.begin());
        const QRectF rect =
            data->boxes[data->boxOfNode[v]].rect.adjusted(-kFramePad, -kFramePad - 14, kFramePad, kFramePad);
        if (it == frameOf.end()) {
            frameOf.push_back(grp);
            data->frames.push_back({grp, rect, QStringLiteral("group %1").arg(grp)});
        } else {
            data->frames[f].rect |= rect;
        }
    }

    data->bounds = QRectF(-kMargin, -kMargin, r.width + 2 * kMargin, r.height + 2 * kMargin);
    data->msLayout = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    return data;
}

} // namespace bpu::ui
