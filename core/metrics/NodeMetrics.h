// SPDX-License-Identifier: MIT
#pragma once

#include "../model/Graph.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bpu {

/// Arithmetic and data volume of one node, from shapes and attributes alone.
///
/// Convention: 1 MAC = one multiply-accumulate (a*b+c). `macs` counts only the true multiply-accumulates
/// of Conv/ConvTranspose (incl. groups, dilations), Gemm and MatMul (incl. batched/broadcast); FLOPs in the
/// Ultralytics/paper sense are 2 x MACs. Everything else (pooling, elementwise, reductions, LUT activations,
/// normalisation, bias adds) is counted as `ops`, one per elementary operation, so the two never mix.
struct NodeMetrics {
    int64_t macs = 0;
    int64_t ops = 0;
    int64_t params = 0;        ///< elements of constant inputs: initializers and Constant-node outputs, also
                               ///< through Identity nodes
    int64_t weightBytes = 0;   ///< bytes of those constant inputs at their stored dtype
    int64_t inputElements = 0; ///< activation (non-constant) inputs
    int64_t inputBytes = 0;
    int64_t outputElements = 0;
    int64_t outputBytes = 0;
    /// Of a MatMul-like node: how many products each output element sums (K: A's last dim, A's first for Gemm
    /// with transA, an Einsum's contracted extent), which the padding pass aligns to the general unit. Set
    /// where the MACs are counted from it; 1 for every other node (a conv pads by its own rule). Kept here,
    /// with the MACs it explains, so a re-analysis reads it from this table rather than from the node's input
    /// shape and attributes.
    int64_t contraction = 1;
    bool complete = true; ///< false if some shape needed for the numbers above was unknown
    /// A count above passed 2^63 and holds kCountMax (CheckedMath.h): the shapes are beyond any device.
    bool saturated = false;
};

/// Whole-model totals. Params and weight bytes count each initializer once, however many nodes share it, and
/// each Constant-node output that holds a parameter (constantNodeParameters(): paddle2onnx's weights).
struct ModelMetrics {
    int64_t macs = 0;
    int64_t ops = 0;
    int64_t params = 0;
    int64_t weightBytes = 0;
    int64_t paramsFromConstants = 0; ///< of `params`, the elements held in Constant nodes
    int constantWeights = 0;         ///< Constant nodes holding those parameters
    int64_t activationBytes = 0; ///< sum of node output bytes
    int nodesIncomplete = 0;
    int nodesSaturated = 0; ///< nodes whose counts saturated; the totals then hold kCountMax
    std::map<std::string, int> opHistogram;
};

NodeMetrics computeNodeMetrics(const Graph& g, const Node& n);
/// Metrics for every node (indexed by NodeId.value) and the totals.
std::vector<NodeMetrics> computeAllMetrics(const Graph& g, ModelMetrics* totals = nullptr);
ModelMetrics totalsOf(const Graph& g, const std::vector<NodeMetrics>& perNode);

} // namespace bpu
