// SPDX-License-Identifier: MIT
#pragma once

#include "GraphNavigation.h"
#include "core/cost/ScopeFigures.h"
#include "core/model/Graph.h"

#include <QGraphicsView>
#include <QMetaType>
#include <memory>
#include <set>
#include <vector>

Q_DECLARE_METATYPE(bpu::NodeId)

namespace bpu::ui {

class GraphScene;
class GraphSearchBar;
class JobTracker;
class LegendWidget;
class Minimap;
class NodeColoring;
class NodeItem;
class ScopeCollapse;
struct SceneItems;

/// The model graph, laid out top to bottom (core/layout) off the GUI thread and drawn with level of detail.
/// Wheel zooms about the cursor, dragging pans, a click selects, double-click expands a fused group (and
/// collapses it from its frame) or opens a collapsed name scope (big models; Backspace or the context menu
/// collapses the scope around the selected node again), Ctrl+F searches by name or op type (`op:If` for
/// exactly that op type), F3 / Shift+F3 step through matches, Alt+arrows walk the edges from the selected
/// node. Overlays: legend (top left, folds on a click), search bar (top right, on demand), minimap (bottom
/// right); in a small view the legend folds and the minimap hides so they do not cover the graph.
///
/// Selection: `nodeSelected` is emitted once per user action that changes the selection (click, search
/// step); `selectNode()` selects and centres without emitting, so a selection hub can call it freely.
class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    /// Layouts register with `jobs` (the Layout lane: a newer layout cancels the running one through the
    /// core's cancel flag). Without a tracker they still run, unregistered.
    void setJobTracker(JobTracker* jobs) { jobs_ = jobs; }
    /// Shows `graph`. `groupOf` (empty, or per node: group id or -1) draws each group as one framed box.
    /// The layout runs on a worker; `layoutReady` follows. A newer call supersedes a running one.
    void setModel(std::shared_ptr<const Graph> graph, std::vector<int> groupOf = {});
    /// Same, taking a copy of `graph`.
    void setModel(const Graph& graph, std::vector<int> groupOf = {});
    /// Another state of the same model (an edit changed shapes or fused groups): re-lays out keeping the
    /// selection, search matches, expanded groups and the view, anchored on the selected node. A graph with
    /// another node count is a new model (setModel).
    void updateModel(std::shared_ptr<const Graph> graph, std::vector<int> groupOf = {});
    void clearModel();
    const Graph* graph() const { return graph_.get(); }
    /// True while a layout requested by setModel / setGroupExpanded has not landed yet.
    bool isLayoutPending() const { return pending_ > 0; }
    /// Wall time of the last layout run (worker side), in ms.
    double lastLayoutMs() const { return lastLayoutMs_; }

    /// Sets the node colours and the legend; null restores the default (op category).
    void setColoring(std::shared_ptr<const NodeColoring> coloring);
    std::shared_ptr<const NodeColoring> coloring() const;
    /// Edges carrying any of these tensors get a marker (Q/DQ boundaries).
    void setMarkedTensors(std::vector<TensorId> tensors);
    /// Per-node figures of the shown state (one per node; empty: none): collapsed name scopes show their
    /// sums (latency, share, CPU nodes, padding waste), and a new model's first view frames the top hotspot.
    void setNodeFigures(const std::vector<NodeFigures>& figures);
    /// The node with the most latency in the figures last set (invalid without figures).

    /// Expands a collapsed group into its members inside a frame (or collapses it again); re-lays out and
    /// keeps the group where it was on screen.
    void setGroupExpanded(int group, bool expanded);
    bool isGroupExpanded(int group) const { return expanded_.count(group) != 0; }
    /// Collapses the innermost open name scope holding `node` (one drawn with more than one node) back into
    /// its box, kept where the node was on screen; false if there is none.
    bool collapseScopeOf(NodeId node);
    /// Backspace: collapseScopeOf(selectedNode()).
    QAction* collapseScopeAction() const { return collapseAction_; }

    /// Highlights every node whose name or op type contains `text` (case-insensitive); `op:Type` matches
    /// the op type exactly (case-insensitive) and nothing else. Returns the count; an empty text clears the
    /// highlight. Does not move the view.
    int search(const QString& text);
    /// Clears the search text, the matches and the bar (a new model).
    void clearSearch();
    const std::vector<NodeId>& matches() const { return matches_; }
    int currentMatchIndex() const { return matchIndex_; }
    /// Steps to the next / previous match (wrapping), selects it (emitting nodeSelected) and centres it.
    NodeId findNext();
    NodeId findPrevious();

    NodeId selectedNode() const { return selected_; }
    GraphScene* graphScene() const { return scene_; }
    LegendWidget* legend() const { return legend_; }
    Minimap* minimap() const { return minimap_; }
    GraphSearchBar* searchBar() const { return searchBar_; }
    /// Ctrl+F (opens the search bar); a main window puts this very action in its menu and widens its
    /// shortcut context, so the key is never claimed twice.
    QAction* findAction() const { return findAction_; }
    /// Alt+Down (a consumer), Alt+Up (the producer of its first input), Alt+Right / Alt+Left (the next or
    /// previous consumer of that producer): walking the graph along its edges from the selected node.
    QList<QAction*> navigationActions() const { return navigation_; }
    /// View toggles for the legend and the minimap.
    QAction* legendAction() const { return legendAction_; }
    QAction* minimapAction() const { return minimapAction_; }
    using Step = NavStep;
    /// The node one step along the edges from `from` (invalid when there is none).
    NodeId neighbour(NodeId from, Step step) const;
    /// Moves the selection one step (as the Alt+arrow keys do); returns the node selected.
    NodeId step(Step s);
    /// The current scale (1 = one scene unit per pixel).
    double zoom() const;
    /// The node box under a viewport position, or null.
    NodeItem* nodeAt(const QPoint& viewportPos) const;

public slots:
    /// Selects and centres `id` without emitting nodeSelected; an invalid id clears the selection.
    void selectNode(bpu::NodeId id);
    void fitToView();
    /// Centres `id` at a readable zoom (at least 1:1).
    void zoomToNode(bpu::NodeId id);
    void zoomBy(double factor);
    void setZoom(double scale);

signals:
    /// The user selected `id` (invalid id: clicked the background).
    void nodeSelected(bpu::NodeId id);
    /// The search matches or the current match changed (the find bar's count follows it).
    void matchesChanged();
    /// A layout landed and the scene shows it.
    void layoutReady();
    /// The layout run failed (the previous drawing stays).
    void layoutFailed(const QString& message);
    /// Scroll position or zoom changed.
    void viewChanged();

protected:
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void contextMenuEvent(QContextMenuEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;
    bool viewportEvent(QEvent* e) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void requestLayout(NodeId anchor);
    void adopt(SceneItems& items, NodeId anchor, QPointF anchorViewPos);
    void userSelect(NodeId id);
    void stepMatch(int delta);
    void placeOverlays();
    /// Scrolls so `item` is not under the legend or the minimap.
    void keepClearOfOverlays(const NodeItem* item);
    void updateSceneRect();
    /// The scale fitToView() would set.
    double fitScale() const;
    /// The first view of a new model: all of it when its op types are legible so, else the top hotspot.
    void initialView();
    void applyScopeNotes();
    void zoomChangedInternal();
    double clampZoom(double s) const;
    QString toolTipFor(const NodeItem& item) const;

    JobTracker* jobs_ = nullptr;
    QList<QAction*> navigation_;
    QAction* legendAction_ = nullptr;
    QAction* minimapAction_ = nullptr;
    GraphScene* scene_;
    LegendWidget* legend_;
    Minimap* minimap_;
    GraphSearchBar* searchBar_;
    QAction* findAction_ = nullptr;
    QAction* collapseAction_ = nullptr;
    std::shared_ptr<const Graph> graph_;
    std::vector<int> groupOf_;
    std::set<int> expanded_;
    std::unique_ptr<ScopeCollapse> scopes_; ///< name scopes drawn collapsed (big models)
    bool scopesPending_ = false; ///< a big new model: the next layout job builds its scope tree first
    std::shared_ptr<const NodeColoring> coloring_;
    bool defaultColoring_ = true;
    std::vector<TensorId> marked_;
    std::vector<NodeId> matches_;
    int matchIndex_ = -1;
    NodeId selected_;
    quint64 generation_ = 0;
    int pending_ = 0;
    bool fresh_ = true; ///< the next layout is a new model: choose an initial view
    double lastLayoutMs_ = 0;
    QPoint pressPos_;
};

} // namespace bpu::ui
