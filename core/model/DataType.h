// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string_view>

namespace bpu {

/// Element types, numbered exactly as onnx's TensorProto::DataType so values convert by cast.
enum class DataType : int32_t {
    Undefined = 0,
    Float = 1,
    UInt8 = 2,
    Int8 = 3,
    UInt16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    String = 8,
    Bool = 9,
    Float16 = 10,
    Double = 11,
    UInt32 = 12,
    UInt64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    BFloat16 = 16,
};

/// Bytes one element occupies in memory; 0 for Undefined/String (no fixed size).
int64_t bytesPerElement(DataType t);
/// Lower-case onnx-style name ("float", "int64", ...).
std::string_view dataTypeName(DataType t);
bool isIntegerType(DataType t);
bool isFloatType(DataType t);

} // namespace bpu
