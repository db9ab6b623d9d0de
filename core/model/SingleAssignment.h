// SPDX-License-Identifier: MIT
#pragma once

#include "Ids.h"

#include <string>
#include <vector>

namespace onnx {
class NodeProto;
}

namespace bpu {

class Graph;

/// Static single assignment in the main graph, checked while the importer interns the names: a value has one
/// writer, never a model input or initializer, and every model output is written or given. What makes the
/// graph a DAG every walk over it terminates on. Checked on the graph's tensor ids (one array slot per
/// output) rather than by hashing every name a second time: at 100k nodes the two name tables this took were
/// a tenth of the import's growth over 10k. Throws ImportError ("<file>: <problem>", naming the nodes).
class SingleAssignment {
public:
    SingleAssignment(const std::string& path, const Graph& g)
        : path_(path)
        , g_(g) {}

    /// Node `index` of the file (the graph's nodes[index] once added; earlier writers already are) writes
    /// `out`, whose tensor the graph has interned (given ones flagged isInitializer / isGraphInput).
    void write(const onnx::NodeProto& n, int index, TensorId out);
    /// `out` is a model output: something must write or give it.
    void modelOutput(TensorId out) const;

private:
    const std::string& path_;
    const Graph& g_;
    std::vector<int> writer_; ///< by tensor id: the file index of the node writing it, -1 for none
};

} // namespace bpu
