// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace onnx {
class AttributeProto;
class NodeProto;
class TypeProto;
} // namespace onnx

namespace bpu {

/// An attribute of the node being checked by name; nullptr if absent. Where a file repeats a name, the
/// last one counts, as in onnx's InferenceContext.
using AttributeLookup = std::function<const onnx::AttributeProto*(const std::string& name)>;
/// The type of input `i` as far as it is known; nullptr if absent or unknown.
using InputTypeLookup = std::function<const onnx::TypeProto*(size_t i)>;

/// True for the ops attributeProblem/inputProblem check (conv, pool, transpose, block ops of the onnx
/// domain).
bool isGuardedOp(const std::string& opType, const std::string& domain);

/// The attribute lookup of a NodeProto.
AttributeLookup attributesOf(const onnx::NodeProto& n);

/// What is wrong with the attributes that onnx's shape inference functions divide by, index with or loop
/// over (strides, dilations, kernel_shape, pads, group, perm, blocksize, ...): zero or negative where a
/// positive count is needed, absurdly large, or lists of disagreeing lengths. "attribute 'strides' is
/// [0, 1]: each value must be >= 1". Empty if nothing (or the op is not one of those checked).
std::string attributeProblem(const std::string& opType, const std::string& domain,
                             const AttributeLookup& attr);

/// What is wrong with the node's input ranks that onnx's inference functions take for granted (a Conv's
/// weight of another rank than its input, a kernel_shape not matching the spatial rank): onnx 1.12
/// indexes past the end of its vectors there (SIGSEGV). Empty if fine or if the ranks are not yet known.
std::string inputProblem(const std::string& opType, const std::string& domain, const AttributeLookup& attr,
                         const InputTypeLookup& input, size_t inputCount);

/// Why onnx's inference must not run on the node although the model may be fine: an input shape it reads
/// without checking is not known yet (MaxUnpool's indices). Empty if it may run. Not an import error: the
/// node just gets no inferred shape.
std::string inferenceHazard(const std::string& opType, const std::string& domain, const InputTypeLookup& input,
                            size_t inputCount);

} // namespace bpu
