// SPDX-License-Identifier: MIT
#pragma once

namespace onnx {
class ModelProto;
}

namespace bpu {

/// Rewrites every name and string of a parsed model that a message, label or report could show (node,
/// value, op, domain, attribute names and strings, symbolic dims, producer) as printableName(): control
/// characters and invalid UTF-8 escaped, over-long names cut. Consistent everywhere (the same function on
/// every occurrence), so the graph links exactly as before. Returns how many strings changed.
int sanitizeNames(onnx::ModelProto& model);

} // namespace bpu
