// SPDX-License-Identifier: MIT
#pragma once

#include "SceneData.h"

#include <QGraphicsScene>
#include <memory>
#include <vector>

namespace bpu::ui {

class EdgeItem;
class GroupFrameItem;
class NodeColoring;
class NodeItem;

/// The items for one SceneData, created off the GUI thread (QGraphicsItems are plain objects until added to
/// a scene) and handed to GraphScene::adopt(). Deletes whatever was not adopted.
struct SceneItems {
    explicit SceneItems(std::shared_ptr<const SceneData> data);
    ~SceneItems();
    SceneItems(const SceneItems&) = delete;
    SceneItems& operator=(const SceneItems&) = delete;

    std::shared_ptr<const SceneData> data;
    std::vector<NodeItem*> nodes; ///< per box
    std::vector<EdgeItem*> edges; ///< per edge
    std::vector<GroupFrameItem*> frames;
    bool adopted = false;
};

/// The graph canvas: one NodeItem per box, one EdgeItem per edge, frames for expanded groups, on a fixed
/// scene rect with the BSP index (the layout is static). It only displays: colours, search matches, the
/// current node and edge marks are set from outside (GraphView) and never emitted back.
class GraphScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit GraphScene(QObject* parent = nullptr);
    ~GraphScene() override;

    /// Replaces everything with `items` (taking ownership) and re-applies the last colouring and marks.
    void adopt(SceneItems& items);
    void clearGraph();

    const SceneData* sceneData() const { return data_.get(); }
    const std::vector<NodeItem*>& nodeItems() const { return nodes_; }
    const std::vector<EdgeItem*>& edgeItems() const { return edges_; }
    /// The box item showing `id` (its own, or its collapsed group's); null if unknown.
    NodeItem* itemForNode(NodeId id) const;
    int boxOfNode(NodeId id) const;

    void setColoring(std::shared_ptr<const NodeColoring> coloring);
    std::shared_ptr<const NodeColoring> coloring() const { return coloring_; }
    /// Highlights the boxes showing these nodes (and un-highlights the rest).
    void setMatches(const std::vector<NodeId>& nodes);
    /// Marks the box showing `id` as current and emphasises its edges; invalid id clears.
    void setCurrentNode(NodeId id);
    NodeId currentNode() const { return current_; }
    /// Edges carrying any of these tensors get the marker diamond.
    void setMarkedTensors(const std::vector<TensorId>& tensors);

private:
    void applyColoring();
    void applyMarks();

    std::shared_ptr<const SceneData> data_;
    std::vector<NodeItem*> nodes_;
    std::vector<EdgeItem*> edges_;
    std::vector<std::vector<int>> edgesOfBox_;
    std::shared_ptr<const NodeColoring> coloring_;
    std::vector<TensorId> marked_;
    NodeId current_;
};

} // namespace bpu::ui
