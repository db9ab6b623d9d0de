// SPDX-License-Identifier: MIT
#pragma once
// The model file a graph was imported from, read again as the importer reads it (the same checks, the same
// name sanitizing, so its names are the graph's): what the IR does not keep (weights' bytes, functions,
// metadata) comes from here when the graph is written back out (core/io/OnnxExport). Internal to core.

#include <onnx/onnx_pb.h>

#include <string>

namespace bpu {

/// Parses `path` as ModelImporter::load does and sanitizes its names; throws ImportError.
onnx::ModelProto readSourceModel(const std::string& path);

} // namespace bpu
