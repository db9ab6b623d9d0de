// SPDX-License-Identifier: MIT
#pragma once

#include "Diagnostic.h"
#include "NameIndex.h"
#include "Node.h"
#include "Tensor.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bpu {

/// The analysis IR: nodes and tensors in flat tables addressed by strong ids, with producer/consumer links
/// and a topological order. Value semantics: copying a Graph is how a what-if snapshot is taken (node
/// protos are shared until an edit replaces one).
class Graph {
public:
    // Model-level facts.
    std::string path;
    int64_t irVersion = 0;
    std::string producerName;
    std::string producerVersion;
    std::map<std::string, int64_t> opsets; ///< domain ("" = ai.onnx) -> version
    /// What the import assumed or could not do, each naming this file (ResultDiagnostics.h gathers them
    /// with the analysis' own).
    std::vector<Diagnostic> diagnostics;
    void diagnose(DiagCode code, std::string text, DiagSeverity severity = DiagSeverity::Warning) {
        diagnostics.push_back({severity, code, path, std::move(text)});
    }

    std::vector<Node> nodes;
    std::vector<Tensor> tensors;
    std::vector<TensorId> inputs;  ///< real model inputs, in model order
    std::vector<TensorId> outputs; ///< model outputs, in model order
    std::vector<NodeId> topoOrder;
    /// Changes whenever link() rebuilds the wiring (import, a cut): caches of the graph's structure (the
    /// analysis' OpTable) compare it. Copies share it: same structure.
    uint64_t structureStamp = 0;

    Node& node(NodeId id) { return nodes[id.value]; }
    const Node& node(NodeId id) const { return nodes[id.value]; }
    Tensor& tensor(TensorId id) { return tensors[id.value]; }
    const Tensor& tensor(TensorId id) const { return tensors[id.value]; }

    TensorId findTensor(const std::string& name) const;
    NodeId findNode(const std::string& name) const;

    /// Adds a tensor or returns the existing one with that name.
    TensorId internTensor(const std::string& name);
    NodeId addNode(Node n);
    /// Sizes the tables and name indexes for an import that knows its counts up front: at 100k nodes the
    /// growth copies and rehashes of four containers are a visible share of the import.
    void reserve(std::size_t nodeCount, std::size_t tensorCount);

    /// Rebuilds consumers and producers from node inputs/outputs, then the topological order.
    /// Throws std::runtime_error naming a node on a cycle.
    void link();

    /// Position of each node in topoOrder (index by NodeId.value).
    const std::vector<uint32_t>& topoIndex() const { return topoIndex_; }

    int64_t defaultOpset() const;

private:
    void sortTopologically();

    NameIndex tensorByName_; ///< into tensors, by Tensor::name
    NameIndex nodeByName_;   ///< into nodes, by Node::name
    std::vector<uint32_t> topoIndex_;
};

} // namespace bpu
