// SPDX-License-Identifier: MIT
#include "GraphScene.h"

#include "EdgeItem.h"
#include "NodeColoring.h"
#include "NodeItem.h"

#include <algorithm>
#include <unordered_set>

namespace bpu::ui {

SceneItems::SceneItems(std::shared_ptr<const SceneData> d)
    : data(std::move(d)) {
    nodes.reserve(data->boxes.size());
    for (size_t b = 0; b < data->boxes.size(); ++b)
        nodes.push_back(new NodeItem(static_cast<int>(b), &data->boxes[b]));
    edges.reserve(data->edges.size());
    for (size_t e = 0; e < data->edges.size(); ++e)
        edges.push_back(new EdgeItem(static_cast<int>(e), &data->edges[e]));
    for (const auto& f : data->frames)
        frames.push_back(new GroupFrameItem(&f));
}

SceneItems::~SceneItems() {
    if (adopted)
        return;
    for (auto* i : nodes)
        delete i;
    for (auto* i : edges)
        delete i;
    for (auto* i : frames)
        delete i;
}

GraphScene::GraphScene(QObject* parent)
    : QGraphicsScene(parent) {
    setItemIndexMethod(QGraphicsScene::BspTreeIndex);
}

GraphScene::~GraphScene() {
    // Items point into data_: delete them first.
    clear();
}

void GraphScene::clearGraph() {
    clear();
    nodes_.clear();
    edges_.clear();
    edgesOfBox_.clear();
    current_ = NodeId{};
    data_.reset();
}

void GraphScene::adopt(SceneItems& items) {
    clearGraph();
    data_ = items.data;
    setSceneRect(data_->bounds);
    nodes_ = items.nodes;
    edges_ = items.edges;
    items.adopted = true;
    for (auto* f : items.frames)
        addItem(f);
    for (auto* e : edges_)
        addItem(e);
    for (auto* n : nodes_)
        addItem(n);
    edgesOfBox_.assign(nodes_.size(), {});
    for (size_t e = 0; e < data_->edges.size(); ++e) {
        edgesOfBox_[data_->edges[e].from].push_back(static_cast<int>(e));
        edgesOfBox_[data_->edges[e].to].push_back(static_cast<int>(e));
    }
    applyColoring();
    applyMarks();
}

int GraphScene::boxOfNode(NodeId id) const {
    if (!data_ || !id.valid() || id.value >= data_->boxOfNode.size())
        return -1;
    return data_->boxOfNode[id.value];
}

NodeItem* GraphScene::itemForNode(NodeId id) const {
    const int b = boxOfNode(id);
    return b >= 0 ? nodes_[b] : nullptr;
}

void GraphScene::setColoring(std::shared_ptr<const NodeColoring> coloring) {
    coloring_ = std::move(coloring);
    applyColoring();
}

void GraphScene::applyColoring() {
    if (!coloring_)
        return;
    for (auto* item : nodes_) {
        const auto& members = item->data().members;
        item->setFill(members.size() == 1 ? coloring_->color(members.front())
                                          : coloring_->groupColor(members));
    }
}

void GraphScene::setMatches(const std::vector<NodeId>& nodes) {
    std::vector<char> hit(nodes_.size(), 0);
    for (NodeId id : nodes) {
        const int b = boxOfNode(id);
        if (b >= 0)
            hit[b] = 1;
    }
    for (size_t b = 0; b < nodes_.size(); ++b)
        nodes_[b]->setMatched(hit[b] != 0);
}

void GraphScene::setCurrentNode(NodeId id) {
    const int before = boxOfNode(current_);
    current_ = id;
    const int after = boxOfNode(id);
    if (before >= 0) {
        nodes_[before]->setCurrent(false);
        for (int e : edgesOfBox_[before])
            edges_[e]->setActive(false);
    }
    if (after >= 0) {
        nodes_[after]->setCurrent(true);
        for (int e : edgesOfBox_[after])
            edges_[e]->setActive(true);
    }
}

void GraphScene::setMarkedTensors(const std::vector<TensorId>& tensors) {
    marked_ = tensors;
    applyMarks();
}

void GraphScene::applyMarks() {
    std::unordered_set<TensorId> set(marked_.begin(), marked_.end());
    for (auto* e : edges_) {
        bool m = false;
        for (TensorId t : e->data().tensors)
            m = m || set.count(t) != 0;
        e->setMarked(m);
    }
}

} // namespace bpu::ui
