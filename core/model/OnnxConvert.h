// SPDX-License-Identifier: MIT
#pragma once

// Conversions between onnx protobuf messages and the IR. Internal to core: only .cpp files include this.

#include "ConstValue.h"
#include "TensorShape.h"

#include <onnx/onnx_pb.h>

#include <memory>
#include <optional>

namespace bpu {

/// Shape from a TensorShapeProto (dim_param kept as symbol, missing dims unknown).
TensorShape shapeFromProto(const onnx::TensorShapeProto& s);
/// Shape of a ValueInfo/TypeProto; rank unknown if the type has no shape.
TensorShape shapeFromType(const onnx::TypeProto& t);
/// Fills a TypeProto's tensor_type from dtype and shape.
void fillType(onnx::TypeProto& out, int32_t dtype, const TensorShape& shape);

/// Value of an embedded small tensor; nullptr if external, too large, or of a type we do not evaluate.
std::shared_ptr<const ConstValue> constFromTensorProto(const onnx::TensorProto& t);
/// Writes a ConstValue as a TensorProto so onnx's inference functions can read it.
void constToTensorProto(const ConstValue& v, onnx::TensorProto& out);

} // namespace bpu
