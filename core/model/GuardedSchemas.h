// SPDX-License-Identifier: MIT
#pragma once

#include <onnx/defs/schema.h>

namespace bpu {

/// onnx's schema registry with the inference functions of the ops in NodeChecks wrapped: the wrapper
/// checks the node's attributes and input ranks first and fails inference with the reason instead of
/// letting onnx 1.12 divide by zero or index past a vector (SIGFPE/SIGSEGV). Handed to onnx as the
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
