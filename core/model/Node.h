// SPDX-License-Identifier: MIT
#pragma once

#include "Ids.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace onnx {
class NodeProto;
}

namespace bpu {

/// One operator. Attributes stay in onnx's own NodeProto (shared, copy-on-write) so shape inference runs
/// the onnx schema's function on exactly what the model said; accessors below read them without exposing
/// protobuf to callers.
struct Node {
    NodeId id;
    std::string name;   ///< the model's name, or "<op>_<index>" when the model left it empty
    std::string opType;
    std::string domain; ///< "" for the default onnx domain
    std::vector<TensorId> inputs;  ///< invalid id for an omitted optional input
    std::vector<TensorId> outputs; ///< invalid id for an omitted optional output
    std::shared_ptr<const onnx::NodeProto> proto;

    int subgraphCount = 0;      ///< graph attributes (If/Loop/Scan bodies)
    int subgraphNodeCount = 0;  ///< nodes inside them, recursively
    std::string shapeError;     ///< why inference gave this node no (complete) output shape, if it did not
    /// The node's inputs break what its op requires (a conv weight of another rank than its input):
    /// shapeError says how, and onnx's inference was not run on it. An import error.
    bool shapeInvalid = false;
    /// The op (this node or one upstream) whose output size depends on tensor values (NonZero,
    /// NonMaxSuppression, ...); invalid if none. Shapes left open below it are dynamic by nature, not an
    /// inference gap.
    NodeId dataDependentOn;

    std::optional<int64_t> attrInt(const std::string& key) const;
    std::optional<float> attrFloat(const std::string& key) const;
    std::optional<std::string> attrString(const std::string& key) const;
    std::optional<std::vector<int64_t>> attrInts(const std::string& key) const;
    int64_t attrIntOr(const std::string& key, int64_t fallback) const { return attrInt(key).value_or(fallback); }
    std::vector<std::string> attributeNames() const;
    /// Attribute rendered for display ("[3, 3]", "0.5", "'NOTSET'", "<graph: 12 nodes>").
    std::string attributeText(const std::string& key) const;

    /// Returns a copy of the proto with one int attribute set (for what-if edits; the original is untouched).
    std::shared_ptr<const onnx::NodeProto> withIntAttribute(const std::string& key, int64_t value) const;
};

} // namespace bpu
