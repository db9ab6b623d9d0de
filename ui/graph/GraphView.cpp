// SPDX-License-Identifier: MIT
#include "GraphView.h"

#include "EdgeItem.h"
#include "GraphNavigation.h"
#include "GraphScene.h"
#include "GraphSearchBar.h"
#include "LegendWidget.h"
#include "Minimap.h"
#include "NodeColoring.h"
#include "NodeItem.h"
#include "PaintCache.h"
#include "SceneData.h"
#include "ScopeCollapse.h"
#include "ui/session/JobTracker.h"

#include <QAction>
#include <QApplication>
#include <QContextMenuEvent>
#include <QFutureWatcher>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cctype>
#include <cmath>

namespace bpu::ui {

namespace {
constexpr double kMaxZoom = 4.0;
constexpr double kReadableZoom = 1.0;
constexpr double kAntialiasZoom = 0.35;

/// Height of the strip along the top or bottom edge of the viewport `vp` (in the view's coordinates) that the
/// legend (top left) or the minimap (bottom right) covers, with a margin.
int overlayBand(const QRect& vp, const QWidget* legend, const QWidget* minimap) {
    int band = 0;
    if (legend->isVisible())
        band = std::max(band, legend->geometry().bottom() - vp.top() + 8);
    if (minimap->isVisible())
        band = std::max(band, vp.bottom() - minimap->geometry().top() + 8);
    return band;
}
} // namespace

GraphView::GraphView(QWidget* parent)
    : QGraphicsView(parent)
    , scene_(new GraphScene(this))
    , scopes_(std::make_unique<ScopeCollapse>()) {
    setScene(scene_);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
    setRenderHint(QPainter::TextAntialiasing, true);
    PaintCache::instance().setPalette(palette());
    setBackgroundBrush(PaintCache::instance().background());

    legend_ = new LegendWidget(this);
    legend_->setHorizontal(true); // a strip above the drawing, never over a node (placeOverlays)
    minimap_ = new Minimap(this);
    searchBar_ = new GraphSearchBar(this);
    searchBar_->hide();

    auto addShortcut = [this](const QKeySequence& key, auto slot) {
        auto* a = new QAction(this);
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    findAction_ = addShortcut(QKeySequence::Find, [this] { searchBar_->activate(); });
    findAction_->setText(tr("&Find Node..."));
    addShortcut(QKeySequence::FindNext, [this] { findNext(); });
    addShortcut(QKeySequence::FindPrevious, [this] { findPrevious(); });
    addShortcut(QKeySequence::ZoomIn, [this] { zoomBy(1.25); });
    addShortcut(QKeySequence::ZoomOut, [this] { zoomBy(0.8); });
    addShortcut(QKeySequence(Qt::Key_F), [this] { fitToView(); });
    addShortcut(QKeySequence(Qt::Key_1), [this] { setZoom(1.0); });
    // Backspace goes back up, as in a file manager: the scope the selected node was opened from closes.
    collapseAction_ = addShortcut(QKeySequence(Qt::Key_Backspace), [this] { collapseScopeOf(selected_); });
    collapseAction_->setText(tr("&Collapse Scope"));
    const std::pair<Step, QString> steps[] = {{Step::Down, tr("Next Node &Down (consumer)")},
                                              {Step::Up, tr("Next Node &Up (producer)")},
                                              {Step::Next, tr("Next &Sibling")},
                                              {Step::Previous, tr("Previous S&ibling")}};
    const Qt::Key keys[] = {Qt::Key_Down, Qt::Key_Up, Qt::Key_Right, Qt::Key_Left};
    for (int i = 0; i < 4; ++i) {
        QAction* a = addShortcut(QKeySequence(Qt::ALT | keys[i]), [this, s = steps[i].first] { step(s); });
        a->setText(steps[i].second);
        navigation_ << a;
    }
    legendAction_ = new QAction(tr("Show &Legend"), this);
    legendAction_->setCheckable(true);
    legendAction_->setChecked(true);
    connect(legendAction_, &QAction::toggled, this, [this] { placeOverlays(); });
    minimapAction_ = new QAction(tr("Show &Minimap"), this);
    minimapAction_->setCheckable(true);
    minimapAction_->setChecked(true);
    connect(minimapAction_, &QAction::toggled, this, [this] { placeOverlays(); });
    connect(legend_, &LegendWidget::collapsedChanged, this, [this] { placeOverlays(); });
    setColoring(nullptr);
}

GraphView::~GraphView() = default;

double GraphView::zoom() const {
    return transform().m11();
}

void GraphView::setModel(const Graph& graph, std::vector<int> groupOf) {
    setModel(std::make_shared<const Graph>(graph), std::move(groupOf));
}

void GraphView::setModel(std::shared_ptr<const Graph> graph, std::vector<int> groupOf) {
    graph_ = std::move(graph);
    groupOf_ = std::move(groupOf);
    expanded_.clear();
    matches_.clear();
    matchIndex_ = -1;
    selected_ = NodeId{};
    fresh_ = true;
    scopes_->reset(nullptr);
    // The scope tree is built by the layout job (off the GUI thread), which collapses with it.
    scopesPending_ = graph_ && graph_->nodes.size() >= ScopeCollapse::kMinNodes;
    if (defaultColoring_)
        setColoring(nullptr); // the default colouring is derived from the graph
    requestLayout(NodeId{});
}

void GraphView::updateModel(std::shared_ptr<const Graph> graph, std::vector<int> groupOf) {
    if (!graph_ || graph->nodes.size() != graph_->nodes.size()) {
        setModel(std::move(graph), std::move(groupOf));
        return;
    }
    graph_ = std::move(graph);
    groupOf_ = std::move(groupOf);
    // Keep the selected node (else the one in the middle of the view) where it is on screen.
    NodeId anchor = selected_;
    if (!scene_->itemForNode(selected_))
        if (NodeItem* middle = nodeAt(viewport()->rect().center()))
            anchor = middle->data().members.front();
    requestLayout(anchor);
}

void GraphView::clearModel() {
    ++generation_; // drop any layout still running
    if (jobs_)
        jobs_->cancel(JobLane::Layout);
    graph_.reset();
    groupOf_.clear();
    expanded_.clear();
    scopes_->reset(nullptr);
    scopesPending_ = false;
    matches_.clear();
    selected_ = NodeId{};
    scene_->clearGraph();
    setSceneRect(QRectF());
    minimap_->rebuild();
}

void GraphView::requestLayout(NodeId anchor) {
    if (!graph_)
        return;
    // One job of the Layout lane: a newer layout raises this one's cancel flag and the core layout stops.
    const JobTicket ticket = jobs_ ? jobs_->begin(JobLane::Layout) : JobTicket{};
    const bool buildScopes = scopesPending_;
    SceneRequest request{graph_, buildScopes ? groupOf_ : scopes_->groupOf(groupOf_), expanded_,
                         ticket.progress(), buildScopes ? std::map<int, QString>{} : scopes_->labels()};
    // The anchor stays where it is on screen; one off screen (a node in a closed scope's box far down the
    // model, a search match, a selection the view does not show) lands in the middle.
    QPointF anchorPos = QPointF(viewport()->rect().center());
    if (NodeItem* item = scene_->itemForNode(anchor)) {
        const QPointF at = mapFromScene(item->sceneBoundingRect().center());
        if (QRectF(viewport()->rect()).contains(at))
            anchorPos = at;
    }
    const quint64 generation = ++generation_;
    ++pending_;
    struct Outcome {
        std::shared_ptr<SceneItems> items;
        QString error;
        bool cancelled = false;
        std::shared_ptr<const layout::ScopeTree> scopes; ///< built by this job (buildScopes)
    };
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, generation, anchor, anchorPos, ticket, buildScopes] {
                --pending_;
                const Outcome out = watcher->result();
                watcher->deleteLater();
                const bool newest =
                    generation == generation_; // the newest request wins; older results are dropped
                if (newest && out.items) {
                    if (buildScopes) {
                        scopes_->adopt(out.scopes);
                        scopesPending_ = false;
                    }
                    adopt(*out.items, anchor, anchorPos);
                    // Selected while the tree was being built (the top hotspot, a command line): open the
                    // scopes down to it now.
                    if (buildScopes && scopes_->reveal(selected_))
                        requestLayout(selected_);
                } else if (newest && !out.cancelled)
                    emit layoutFailed(out.error);
                // Finished last, after the scene shows the result, so "settled" means the drawing is there.
                if (jobs_)
                    jobs_->finish(ticket, out.cancelled || !newest ? JobOutcome::Cancelled
                                          : out.items              ? JobOutcome::Done
                                                                   : JobOutcome::Failed);
            });
    // Layout and item construction both run on the worker; the GUI thread only adds the finished items.
    // The job holds its ticket: the cancel flag its Progress points at lives as long as the job, even when
    // the window (and its tracker) goes first, as on quit or an exit mid-layout.
    watcher->setFuture(QtConcurrent::run([request, ticket, buildScopes]() mutable -> Outcome {
        (void)ticket;
        try {
            std::shared_ptr<const layout::ScopeTree> tree;
            if (buildScopes) {
                // A new big model: its scopes, collapsed by the default expansion, then the layout of that.
                ScopeCollapse scopes;
                scopes.adopt(ScopeCollapse::buildTree(request.graph.get()));
                request.groupOf = scopes.groupOf(request.groupOf);
                request.groupLabels = scopes.labels();
                tree = scopes.tree();
            }
            return {std::make_shared<SceneItems>(buildSceneData(request)), {}, false, std::move(tree)};
        } catch (const Cancelled&) {
            return {nullptr, {}, true, {}};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromUtf8(e.what()), false, {}};
        }
    }));
}

void GraphView::adopt(SceneItems& items, NodeId anchor, QPointF anchorViewPos) {
    lastLayoutMs_ = items.data->msLayout;
    scene_->adopt(items);
    updateSceneRect();
    scene_->setMarkedTensors(marked_);
    scene_->setMatches(matches_);
    scene_->setCurrentNode(selected_);
    applyScopeNotes();
    if (fresh_) {
        fresh_ = false;
        initialView();
    } else if (NodeItem* item = scene_->itemForNode(anchor)) {
        const QPointF offset = (anchorViewPos - QPointF(viewport()->rect().center())) / zoom();
        centerOn(item->sceneBoundingRect().center() - offset);
    }
    minimap_->rebuild();
    emit layoutReady();
}

void GraphView::initialView() {
    const QRectF r = sceneRect();
    // Whole when every box shows its op type at that scale; else a readable zoom on the model's start, its
    // first layers in view (as Netron opens): where a reader expects a graph to begin, with the hotspots one
    // click away in their dock. (Framing the top hotspot landed mid-graph with no input in sight: issue 63.)
    if (fitScale() >= NodeItem::kTitleLod) {
        fitToView();
    } else {
        setZoom(std::clamp(viewport()->width() / r.width(), NodeItem::kDetailLod, kReadableZoom));
        const NodeItem* first = nullptr;
        for (NodeItem* item : scene_->nodeItems())
            if (!first || item->sceneBoundingRect().top() < first->sceneBoundingRect().top())
                first = item;
        const double x = first ? first->sceneBoundingRect().center().x() : r.center().x();
        centerOn(x, r.top() + viewport()->height() / zoom() / 2);
        if (first)
            keepClearOfOverlays(first);
    }
    // Selected while the layout ran (a selection hub, a command line): show it.
    if (NodeItem* item = scene_->itemForNode(selected_)) {
        centerOn(item);
        keepClearOfOverlays(item);
    }
}

void GraphView::setNodeFigures(const std::vector<NodeFigures>& figures) {
    scopes_->setFigures(figures);
    applyScopeNotes();
}

void GraphView::applyScopeNotes() {
    // A few hundred scope boxes at most (ScopeCollapse::kDefaultUnits): cheap per snapshot.
    for (NodeItem* item : scene_->nodeItems())
        if (ScopeCollapse::isScopeGroup(item->data().group)) {
            const ScopeFigures* f = scopes_->figures(item->data().group);
            item->setNote(f ? ScopeCollapse::note(*f) : QString());
        }
}

void GraphView::setColoring(std::shared_ptr<const NodeColoring> coloring) {
    defaultColoring_ = !coloring;
    static const Graph kNoGraph;
    // Both arms lvalues: a prvalue arm would copy the whole graph on the GUI thread (every new model).
    if (!coloring)
        coloring = std::make_shared<OpCategoryColoring>(graph_ ? *graph_ : kNoGraph);
    coloring_ = std::move(coloring);
    scene_->setColoring(coloring_);
    legend_->setColoring(coloring_.get());
    placeOverlays();
    updateSceneRect();
    minimap_->rebuild();
}

void GraphView::updateSceneRect() {
    if (!graph_ || scene_->nodeItems().empty())
        return;
    // A margin around the drawing; the legend has its own strip above the viewport.
    constexpr double room = 24;
    setSceneRect(scene_->sceneRect().adjusted(-room, -room, room, room));
}

std::shared_ptr<const NodeColoring> GraphView::coloring() const {
    return coloring_;
}

void GraphView::setMarkedTensors(std::vector<TensorId> tensors) {
    marked_ = std::move(tensors);
    scene_->setMarkedTensors(marked_);
}

void GraphView::setGroupExpanded(int group, bool expanded) {
    if (ScopeCollapse::isScopeGroup(group)) {
        // A name scope opens into its sub-scopes and nodes (its own boxes, no frame).
        if (expanded) {
            if (const NodeId anchor = scopes_->open(group); anchor.valid())
                requestLayout(anchor);
            return;
        }
        // Closed again: its box lands where the selected node (else the node in the middle of the view)
        // inside it was.
        auto inside = [this, group](NodeId n) {
            const auto open = scopes_->openScopesOf(n);
            return std::find(open.begin(), open.end(), group) != open.end();
        };
        NodeId anchor = selected_;
        if (!inside(anchor)) {
            const NodeItem* middle = nodeAt(viewport()->rect().center());
            anchor =
                middle && inside(middle->data().members.front()) ? middle->data().members.front() : NodeId{};
        }
        if (scopes_->collapse(group))
            requestLayout(anchor);
        return;
    }
    if (expanded == isGroupExpanded(group))
        return;
    NodeId anchor;
    for (size_t v = 0; v < groupOf_.size() && !anchor.valid(); ++v)
        if (groupOf_[v] == group && graph_)
            anchor = NodeId(static_cast<uint32_t>(v));
    if (expanded)
        expanded_.insert(group);
    else
        expanded_.erase(group);
    requestLayout(anchor);
}

bool GraphView::collapseScopeOf(NodeId node) {
    const auto open = scopes_->openScopesOf(node);
    if (open.empty() || !scopes_->collapse(open.front()))
        return false;
    requestLayout(node);
    return true;
}

int GraphView::search(const QString& text) {
    matches_.clear();
    matchIndex_ = -1;
    QString needle = text.trimmed();
    if (graph_ && needle.startsWith(QLatin1String("op:"), Qt::CaseInsensitive)) {
        // Exactly this op type ("op:If" is the If nodes, not every node whose name holds "if").
        const QByteArray op = needle.mid(3).trimmed().toUtf8();
        const std::string key(op.constData(), static_cast<size_t>(op.size()));
        auto equalCi = [&key](const std::string& s) {
            return s.size() == key.size() && std::equal(s.begin(), s.end(), key.begin(), [](char a, char b) {
                       return std::tolower(static_cast<unsigned char>(a)) ==
                              std::tolower(static_cast<unsigned char>(b));
                   });
        };
        if (!key.empty())
            for (NodeId id : graph_->topoOrder)
                if (equalCi(graph_->node(id).opType))
                    matches_.push_back(id);
        needle.clear();
    }
    if (graph_ && !needle.isEmpty()) {
        const QByteArray n = needle.toUtf8();
        const std::string key(n.constData(), static_cast<size_t>(n.size()));
        auto containsCi = [&key](const std::string& hay) {
            return std::search(hay.begin(), hay.end(), key.begin(), key.end(), [](char a, char b) {
                       return std::tolower(static_cast<unsigned char>(a)) ==
                              std::tolower(static_cast<unsigned char>(b));
                   }) != hay.end();
        };
        for (NodeId id : graph_->topoOrder) {
            const Node& node = graph_->node(id);
            if (containsCi(node.opType) || containsCi(node.name))
                matches_.push_back(id);
        }
    }
    scene_->setMatches(matches_);
    minimap_->update();
    emit matchesChanged();
    return static_cast<int>(matches_.size());
}

void GraphView::clearSearch() {
    searchBar_->clear();
    search(QString());
    searchBar_->hide();
}

NodeId GraphView::neighbour(NodeId from, Step s) const {
    return graph_ ? graphNeighbour(*graph_, from, s) : NodeId{};
}

NodeId GraphView::step(Step s) {
    const NodeId next = neighbour(selected_, s);
    if (!next.valid())
        return selected_;
    userSelect(next);
    if (NodeItem* item = scene_->itemForNode(next)) {
        ensureVisible(item, 40, 40);
        keepClearOfOverlays(item);
    }
    return next;
}

NodeId GraphView::findNext() {
    stepMatch(1);
    return selected_;
}

NodeId GraphView::findPrevious() {
    stepMatch(-1);
    return selected_;
}

void GraphView::stepMatch(int delta) {
    if (matches_.empty())
        return;
    const int n = static_cast<int>(matches_.size());
    matchIndex_ = matchIndex_ < 0 ? (delta > 0 ? 0 : n - 1) : ((matchIndex_ + delta) % n + n) % n;
    const NodeId id = matches_[matchIndex_];
    if (scopes_->reveal(id))
        requestLayout(id); // the match is inside a collapsed scope
    userSelect(id);
    zoomToNode(id);
    emit matchesChanged(); // "3 of 7", however the step was asked for (Enter, F3, the arrows)
}

void GraphView::userSelect(NodeId id) {
    // (The find bar's "n of m" follows matchesChanged.)
    if (id == selected_)
        return;
    selected_ = id;
    scene_->setCurrentNode(id);
    minimap_->update();
    emit nodeSelected(id);
}

void GraphView::selectNode(NodeId id) {
    if (scopes_->reveal(id))
        requestLayout(id); // inside a collapsed scope: open the path to it
    selected_ = id;
    scene_->setCurrentNode(id);
    if (NodeItem* item = scene_->itemForNode(id))
        centerOn(item);
    minimap_->update();
}

double GraphView::fitScale() const {
    const QRectF r = sceneRect();
    if (r.isEmpty())
        return 1;
    // At most a quarter of the height each: the drawing keeps half the view whatever the overlays.
    const int band =
        std::min(overlayBand(viewport()->geometry(), legend_, minimap_), viewport()->height() / 4);
    // A fitted drawing is centred: a free band of the overlays' height above and below it keeps the legend
    // (top left) and the minimap (bottom right) off every node, whatever the drawing's aspect.
    return std::min((viewport()->width() - 4) / r.width(),
                    std::max(1.0, double(viewport()->height() - 2 * band - 4)) / r.height());
}

void GraphView::fitToView() {
    if (sceneRect().isEmpty())
        return;
    const auto anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    const QRectF r = sceneRect();
    const double s = fitScale();
    // A drawing that fits only below the scale its boxes name their op at (a tall graph: resnet50 at 1:20) is
    // fitted to the width instead and shown from its start, to scroll down (as Netron does).
    const double byWidth = std::min((viewport()->width() - 4) / r.width(), kReadableZoom);
    if (s < NodeItem::kTitleLod && byWidth > s) {
        setTransform(QTransform::fromScale(byWidth, byWidth));
        centerOn(r.center().x(), r.top() + viewport()->height() / byWidth / 2);
    } else {
        setTransform(QTransform::fromScale(s, s));
        centerOn(r.center());
    }
    setTransformationAnchor(anchor);
    zoomChangedInternal();
}

void GraphView::zoomToNode(NodeId id) {
    NodeItem* item = scene_->itemForNode(id);
    if (!item)
        return;
    if (zoom() < kReadableZoom)
        setZoom(kReadableZoom);
    centerOn(item);
    keepClearOfOverlays(item);
}

void GraphView::keepClearOfOverlays(const NodeItem* item) {
    // Where the box is on screen, and by how much the overlays it sits under would have to move it.
    const QRect box = mapFromScene(item->sceneBoundingRect()).boundingRect();
    QPoint shift;
    for (const QWidget* overlay :
         {static_cast<const QWidget*>(legend_), static_cast<const QWidget*>(minimap_)}) {
        if (!overlay->isVisible())
            continue;
        const QRect o = overlay->geometry().translated(-viewport()->pos());
        if (!o.intersects(box.translated(-shift)))
            continue;
        // Move the box right of / below the legend (top left), or left of / above the minimap (bottom
        // right), whichever is the shorter way.
        const bool topLeft = o.left() < viewport()->width() / 2;
        const int dx = topLeft ? o.right() + 8 - box.left() : o.left() - 8 - box.right();
        const int dy = topLeft ? o.bottom() + 8 - box.top() : o.top() - 8 - box.bottom();
        if (std::abs(dx) < std::abs(dy))
            shift.rx() -= dx;
        else
            shift.ry() -= dy;
    }
    if (shift.isNull())
        return;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + shift.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() + shift.y());
}

void GraphView::zoomBy(double factor) {
    setZoom(zoom() * factor);
}

double GraphView::clampZoom(double s) const {
    const QRectF r = sceneRect();
    double fit = 1;
    if (!r.isEmpty())
        fit = std::min(viewport()->width() / r.width(), viewport()->height() / r.height());
    return std::clamp(s, std::min(fit, 1.0) * 0.5, kMaxZoom);
}

void GraphView::setZoom(double scale) {
    const auto anchor = transformationAnchor();
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    const double s = clampZoom(scale);
    setTransform(QTransform::fromScale(s, s));
    setTransformationAnchor(anchor);
    zoomChangedInternal();
}

void GraphView::zoomChangedInternal() {
    setRenderHint(QPainter::Antialiasing, zoom() >= kAntialiasZoom);
    minimap_->update();
    emit viewChanged();
}

void GraphView::wheelEvent(QWheelEvent* e) {
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) {
        QGraphicsView::wheelEvent(e);
        return;
    }
    const double s = clampZoom(zoom() * std::pow(1.2, steps));
    scale(s / zoom(), s / zoom()); // AnchorUnderMouse keeps the point under the cursor fixed
    zoomChangedInternal();
    e->accept();
}

NodeItem* GraphView::nodeAt(const QPoint& viewportPos) const {
    for (QGraphicsItem* item : items(viewportPos))
        if (item->type() == NodeItem::Type) {
            auto* node = static_cast<NodeItem*>(item);
            // The bounding rect includes the halo margin: hit-test the box itself.
            if (QRectF(QPointF(0, 0), node->data().rect.size())
                    .contains(node->mapFromScene(mapToScene(viewportPos))))
                return node;
        }
    return nullptr;
}

void GraphView::mousePressEvent(QMouseEvent* e) {
    pressPos_ = e->pos();
    QGraphicsView::mousePressEvent(e);
}

void GraphView::mouseReleaseEvent(QMouseEvent* e) {
    QGraphicsView::mouseReleaseEvent(e);
    if (e->button() != Qt::LeftButton ||
        (e->pos() - pressPos_).manhattanLength() >= QApplication::startDragDistance())
        return; // a pan, not a click
    if (NodeItem* item = nodeAt(e->pos()))
        userSelect(item->data().members.front());
    else
        userSelect(NodeId{});
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (NodeItem* item = nodeAt(e->pos())) {
        if (item->isGroup())
            setGroupExpanded(item->data().group, true);
        return;
    }
    for (QGraphicsItem* item : items(e->pos()))
        if (item->type() == GroupFrameItem::Type) {
            setGroupExpanded(static_cast<GroupFrameItem*>(item)->group(), false);
            return;
        }
    QGraphicsView::mouseDoubleClickEvent(e);
}

void GraphView::contextMenuEvent(QContextMenuEvent* e) {
    NodeItem* item = nodeAt(e->pos());
    if (!item || !scopes_->active()) {
        QGraphicsView::contextMenuEvent(e);
        return;
    }
    QMenu menu(this);
    const int group = item->data().group;
    if (ScopeCollapse::isScopeGroup(group))
        menu.addAction(tr("Open Scope %1").arg(scopes_->path(group)), this,
                       [this, group] { setGroupExpanded(group, true); });
    // The open scopes around the node, innermost first: each collapses back into its box.
    const NodeId node = item->data().members.front();
    for (int s : scopes_->openScopesOf(node)) {
        menu.addAction(tr("Collapse Scope %1").arg(scopes_->path(s)), this, [this, s, node] {
            if (scopes_->collapse(s))
                requestLayout(node);
        });
    }
    if (menu.actions().isEmpty()) {
        QGraphicsView::contextMenuEvent(e);
        return;
    }
    menu.exec(e->globalPos());
}

void GraphView::resizeEvent(QResizeEvent* e) {
    QGraphicsView::resizeEvent(e);
    placeOverlays();
    minimap_->rebuild();
}

void GraphView::placeOverlays() {
    constexpr int m = 8;
    // The legend is a strip docked above the viewport (its margin), out of every node's way (issue 52). A
    // small view keeps its graph: the legend folds to its title (a click unfolds it) and the minimap goes
    // (it comes back when the view grows, unless switched off in the View menu).
    const bool showLegend = legendAction_ && legendAction_->isChecked() && !legend_->title().isEmpty();
    const int strip = showLegend ? legend_->sizeHint().height() : 0;
    if (viewportMargins().top() != strip)
        setViewportMargins(0, strip, 0, 0); // resizes the viewport (and comes back here)
    const QRect vp = viewport()->geometry();
    const bool small = vp.width() < 640 || vp.height() < 480;
    legend_->setVisible(showLegend);
    if (!legend_->userChose() && legend_->isCollapsed() != (vp.width() < 640))
        legend_->setCollapsed(vp.width() < 640);
    minimap_->setWanted(minimapAction_ && minimapAction_->isChecked() && !small);
    legend_->setGeometry(vp.left(), vp.top() - strip, std::min(vp.width(), legend_->sizeHint().width()),
                         strip);
    searchBar_->resize(std::min(searchBar_->sizeHint().width(), std::max(0, vp.width() - 2 * m)),
                       searchBar_->sizeHint().height());
    searchBar_->move(vp.right() - searchBar_->width() - m, vp.top() + m);
    minimap_->resize(minimap_->sizeHint());
    minimap_->move(vp.right() - minimap_->width() - m, vp.bottom() - minimap_->height() - m);
}

void GraphView::changeEvent(QEvent* e) {
    if (e->type() == QEvent::PaletteChange) {
        PaintCache::instance().setPalette(palette());
        setBackgroundBrush(PaintCache::instance().background());
        minimap_->rebuild();
        viewport()->update();
    }
    QGraphicsView::changeEvent(e);
}

void GraphView::scrollContentsBy(int dx, int dy) {
    QGraphicsView::scrollContentsBy(dx, dy);
    minimap_->update();
    emit viewChanged();
}

bool GraphView::viewportEvent(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        if (NodeItem* item = nodeAt(help->pos()))
            QToolTip::showText(help->globalPos(), toolTipFor(*item), viewport());
        else
            QToolTip::hideText();
        return true;
    }
    return QGraphicsView::viewportEvent(e);
}

QString GraphView::toolTipFor(const NodeItem& item) const {
    // Built on hover: nothing is stored per item.
    if (!graph_)
        return {};
    const auto& members = item.data().members;
    auto shapes = [this](const std::vector<TensorId>& ts, bool skipInit) {
        // A few shapes: a node with 100k outputs must not build a 100k-line tooltip on the GUI thread.
        constexpr int kShown = 8;
        QStringList out;
        int more = 0;
        for (TensorId t : ts)
            if (t.valid() && !(skipInit && graph_->tensor(t).isInitializer)) {
                if (out.size() < kShown)
                    out << QString::fromStdString(graph_->tensor(t).shape.toString()).toHtmlEscaped();
                else
                    ++more;
            }
        if (more > 0)
            out << tr("... %1 more").arg(more);
        return out.join(QStringLiteral(", "));
    };
    QString html;
    if (const int group = item.data().group; ScopeCollapse::isScopeGroup(group)) {
        html += tr("<b>%1</b> (%2 nodes, double-click to open)<br>")
                    .arg(scopes_->path(group).toHtmlEscaped())
                    .arg(members.size());
        if (const ScopeFigures* f = scopes_->figures(group)) {
            html += ScopeCollapse::toolTip(*f);
            if (f->hottest.valid()) {
                const Node& hot = graph_->node(f->hottest);
                html +=
                    tr("hottest: <b>%1</b> %2 (%3)<br>")
                        .arg(QString::fromStdString(hot.opType).toHtmlEscaped(),
                             QString::fromStdString(hot.name).toHtmlEscaped(), formatLatencyUs(f->hottestUs));
            }
        }
        html += QStringLiteral("<hr>");
    } else if (members.size() > 1)
        html += tr("<b>Group %1</b> (%2 nodes, double-click to expand)<br>")
                    .arg(item.data().group)
                    .arg(members.size());
    const size_t shown = std::min<size_t>(members.size(), 8);
    for (size_t i = 0; i < shown; ++i) {
        const Node& n = graph_->node(members[i]);
        html += QStringLiteral("<b>%1</b> %2<br>&nbsp;in: %3<br>&nbsp;out: %4<br>")
                    .arg(QString::fromStdString(n.opType).toHtmlEscaped(),
                         QString::fromStdString(n.name).toHtmlEscaped(), shapes(n.inputs, true),
                         shapes(n.outputs, false));
    }
    if (shown < members.size())
        html += tr("... and %1 more").arg(members.size() - shown);
    return html;
}

} // namespace bpu::ui
