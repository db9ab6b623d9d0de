// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"
#include "GraphPatch.h"

#include <string>
#include <vector>

namespace bpu {

/// An edit of the graph itself (an attribute, a weight shape, an input shape): shapes downstream are
/// re-derived incrementally and weights resized where the new channel count reaches them.
class ShapeEdit : public Edit {
protected:
    /// Changes the graph, re-derives shapes downstream and records the patch and the nodes to re-measure.
    void change(EditContext& ctx) const override;
    /// Mutates the graph through `patch` (saving what it changes) and returns the changed tensors and touched
    /// nodes to re-infer from; throws EditError if illegal (the caller restores the patch).
    virtual void changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                             std::vector<NodeId>& touched) const = 0;
};

class SetGroupEdit : public ShapeEdit {
public:
    SetGroupEdit(std::string node, int64_t group)
        : node_(std::move(node))
        , group_(group) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override {
        return {{"op", "set_group"}, {"node", node_}, {"group", group_}};
    }
    std::string mergeKey() const override { return "group:" + node_; }
    EditCosts costs() const override { return {EditCost::NeedsRetraining}; }

protected:
    void changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                     std::vector<NodeId>& touched) const override;

private:
    std::string node_;
    int64_t group_;
};

class SetBatchEdit : public ShapeEdit {
public:
    explicit SetBatchEdit(int64_t batch)
        : batch_(batch) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override { return {{"op", "set_batch"}, {"batch", batch_}}; }
    std::string mergeKey() const override { return "batch"; }
    EditCosts costs() const override { return {EditCost::ThroughputTradeOff}; }

protected:
    void change(EditContext& ctx) const override;
    void changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                     std::vector<NodeId>& touched) const override;

private:
    int64_t batch_;
};

class SetInputShapeEdit : public ShapeEdit {
public:
    SetInputShapeEdit(std::string input, std::vector<int64_t> dims)
        : input_(std::move(input))
        , dims_(std::move(dims)) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override {
        return {{"op", "set_input_shape"}, {"input", input_}, {"shape", dims_}};
    }
    std::string mergeKey() const override { return "input:" + input_; }
    /// Another resolution: what the model sees and outputs changes; the weights were trained at the old one.
    EditCosts costs() const override { return {EditCost::ChangesOutputs, EditCost::NeedsRetraining}; }

protected:
    void changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                     std::vector<NodeId>& touched) const override;
    const std::string& input() const { return input_; }
    const std::vector<int64_t>& dims() const { return dims_; }

private:
    std::string input_;
    std::vector<int64_t> dims_;
};

/// Output channels of a Conv; the weights of the ops its channels reach are resized (next convs' input
/// channels, depthwise groups, per-channel BN/PRelu/broadcast parameters, a classifier's K).
class SetChannelsEdit : public ShapeEdit {
public:
    SetChannelsEdit(std::string node, int64_t channels)
        : node_(std::move(node))
        , channels_(channels) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override {
        return {{"op", "set_channels"}, {"node", node_}, {"channels", channels_}};
    }
    std::string mergeKey() const override { return "channels:" + node_; }
    EditCosts costs() const override { return {EditCost::NeedsRetraining}; }

protected:
    void changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                     std::vector<NodeId>& touched) const override;

private:
    std::string node_;
    int64_t channels_;
};

} // namespace bpu
