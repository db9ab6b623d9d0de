// SPDX-License-Identifier: MIT
#pragma once

#include "Graph.h"
#include "ImportOptions.h"

#include <string>

namespace bpu {

/// Loads an ONNX file into the IR: checks the file, parses it with protobuf/onnx, vets external-data
/// locations (never opening one), resolves symbolic input dims from the options, links the graph and runs
/// shape inference. Throws ImportError ("<file>: <problem>") for anything it cannot accept, and Cancelled
/// if the options' cancel flag is raised.
class ModelImporter {
public:
    static Graph load(const std::string& path, const ImportOptions& options = {});
    /// The same for a model already in memory (the fuzz target's entry): `path` names it in messages and
    /// its folder is where external-data locations must stay.
    static Graph loadBytes(const std::string& path, std::string bytes, const ImportOptions& options = {});
};

} // namespace bpu
