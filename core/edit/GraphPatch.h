// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace bpu {

/// Records the state of the tensors and nodes an edit touches (shapes, dtypes, folded values, node protos,
/// inference errors) so the edit can be reverted exactly, and re-derives shapes downstream.
class GraphPatch {
public:
    void saveTensor(const Graph& g, TensorId id);
    void saveNode(const Graph& g, NodeId id);
    /// Re-infers downstream of the changed tensors/nodes, saving each node's outputs first. Throws
    /// EditError naming the first node whose shapes the change breaks (after restoring everything).
    /// `adapt`, if set, runs on each node after it is saved and before it is inferred, so an edit can resize
    /// a node's weights to its new input (it must saveTensor what it changes).
    std::vector<NodeId> reinfer(Graph& g, const std::vector<TensorId>& changed,
                                const std::vector<NodeId>& touched,
                                const std::function<void(NodeId)>& adapt = {});
    void restore(Graph& g) const;
    bool empty() const { return tensors_.empty() && nodes_.empty(); }
    /// The tensors saved so far (the ones the edit changed or may have changed), in no particular order.
    std::vector<TensorId> savedTensors() const;
    /// True when restoring `patches` (applied in this order) would leave `g` as it is: every tensor and node
    /// they saved is, in its earliest saved state, what `g` holds now.
    static bool unchanged(const Graph& g, const std::vector<GraphPatch>& patches);

private:
    /// A tensor's shape before the edit (the saved one if the edit changed it).
    const TensorShape& shapeBefore(const Graph& g, TensorId id) const;
    /// Why an element-preserving node (Reshape, ...) no longer holds its input's elements, or empty.
    std::string elementCountBroken(const Graph& g, const Node& n) const;

    struct TensorState {
        DataType dtype;
        TensorShape shape;
        std::shared_ptr<const ConstValue> value;
    };
    struct NodeState {
        std::shared_ptr<const onnx::NodeProto> proto;
        std::string shapeError;
        NodeId dataDependentOn;
    };
    std::unordered_map<uint32_t, TensorState> tensors_;
    std::unordered_map<uint32_t, NodeState> nodes_;
};

} // namespace bpu
