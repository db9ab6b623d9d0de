// SPDX-License-Identifier: MIT
#pragma once

#include <onnx/defs/schema.h>

namespace bpu {

/// onnx's schema registry with every inference function wrapped: the wrapper checks what onnx 1.12 takes
/// for granted of any node (required attributes present, required inputs typed) and, for the ops in
/// NodeChecks, the attributes and input ranks, and fails inference with the reason instead of letting onnx
/// divide by zero, index past a vector or follow a null pointer (SIGFPE/SIGSEGV). Handed to onnx as the
/// registry for the nodes BpuScope infers and for the If/Loop/Scan bodies onnx infers itself, so a node
/// nested in a body is guarded like any other. Every other schema is onnx's own.
class GuardedSchemas final : public onnx::ISchemaRegistry {
public:
    static const GuardedSchemas& instance();

    const onnx::OpSchema* GetSchema(const std::string& key, const int maxInclusiveVersion,
                                    const std::string& domain) const override;

private:
    GuardedSchemas() = default;
};

} // namespace bpu
