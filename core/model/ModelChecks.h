// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace onnx {
class ModelProto;
class NodeProto;
} // namespace onnx

namespace bpu {

/// Checks a parsed model before anything else reads it, so no later stage (onnx's inference, the
/// analysis) meets what it cannot handle. Throws ImportError ("<file>: <problem>", naming the node and
/// attribute) for: IR and opset versions no ONNX release has, data types that are not ONNX's, initializers
/// whose data does not fill their dims, conv/pool/transpose attributes onnx would divide by or index with
/// (in If/Loop/Scan bodies too). Appends warnings (an opset newer than the onnx library here knows). Single
/// assignment is checked apart: in the main graph as the graph is built (SingleAssignment.h), in bodies by
/// SubgraphScopes.h.
void checkModel(const std::string& path, const onnx::ModelProto& model, std::vector<std::string>& warnings);

/// "node 'conv1' (Conv)", "node '#3' (com.microsoft.FusedConv)": how an import error names a node of the
/// file.
std::string nodeLabel(const onnx::NodeProto& n, int index);

/// The output slots of `n` that name `name`, as "0 and 1": how a node listing one output twice is named.
std::string outputSlots(const onnx::NodeProto& n, const std::string& name);

} // namespace bpu
