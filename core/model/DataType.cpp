// SPDX-License-Identifier: MIT
#include "DataType.h"

namespace bpu {

int64_t bytesPerElement(DataType t) {
    switch (t) {
    case DataType::Bool:
    case DataType::UInt8:
    case DataType::Int8:
        return 1;
    case DataType::UInt16:
    case DataType::Int16:
    case DataType::Float16:
    case DataType::BFloat16:
        return 2;
    case DataType::Float:
    case DataType::Int32:
    case DataType::UInt32:
        return 4;
    case DataType::Double:
    case DataType::Int64:
    case DataType::UInt64:
    case DataType::Complex64:
        return 8;
    case DataType::Complex128:
        return 16;
    case DataType::Undefined:
    case DataType::String:
        return 0;
    }
    return 0;
}

std::string_view dataTypeName(DataType t) {
    switch (t) {
    case DataType::Undefined: return "undefined";
    case DataType::Float: return "float";
    case DataType::UInt8: return "uint8";
    case DataType::Int8: return "int8";
    case DataType::UInt16: return "uint16";
    case DataType::Int16: return "int16";
    case DataType::Int32: return "int32";
    case DataType::Int64: return "int64";
    case DataType::String: return "string";
    case DataType::Bool: return "bool";
    case DataType::Float16: return "float16";
    case DataType::Double: return "double";
    case DataType::UInt32: return "uint32";
    case DataType::UInt64: return "uint64";
    case DataType::Complex64: return "complex64";
    case DataType::Complex128: return "complex128";
    case DataType::BFloat16: return "bfloat16";
    }
    return "undefined";
}

bool isIntegerType(DataType t) {
    switch (t) {
    case DataType::UInt8:
    case DataType::Int8:
    case DataType::UInt16:
    case DataType::Int16:
    case DataType::Int32:
    case DataType::Int64:
    case DataType::UInt32:
    case DataType::UInt64:
    case DataType::Bool:
        return true;
    default:
        return false;
    }
}

bool isFloatType(DataType t) {
    return t == DataType::Float || t == DataType::Double || t == DataType::Float16 || t == DataType::BFloat16;
}

} // namespace bpu
