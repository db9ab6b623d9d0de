// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace onnx {
class GraphProto;
}

namespace bpu {

/// Single assignment inside If/Loop/Scan bodies, as ONNX states it and onnx's checker enforces it: in each
/// body every value name is produced once - by one of its inputs, initializers or node output slots - and a
/// node output never re-produces a name of an enclosing scope (the main graph's inputs, initializers and the
/// outputs of the nodes before the one holding the body; the enclosing bodies' likewise). A body's inputs and
/// initializers may shadow outer names (onnx's checker lets them); an initializer may also be a body input.
/// Empty names (an omitted optional output) are never a producer. The main graph's own scope is checked on
/// its tensor ids as it is built (SingleAssignment.h); this only reads its names, and only when the model has
/// a body at all. Throws ImportError ("<file>: <problem>") naming the body, the node or input, the name and
/// the first producer.
void checkSubgraphScopes(const std::string& path, const onnx::GraphProto& mainGraph);

} // namespace bpu
