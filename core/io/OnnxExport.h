// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace bpu {

class Graph;

/// Why an export was refused: "<output>: <problem>".
class ExportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// What an export wrote besides the graph.
struct OnnxExportReport {
    /// Initializers whose dims an edit changed (a conv's channels, a group): their trained values no longer
    /// fit, so they are written as zeros (ones for a BatchNormalization variance) - retrain before use.
    std::vector<std::string> reinitialised;
    /// External-data files copied beside the output (the model's weights, unchanged).
    std::vector<std::string> copiedFiles;
    std::vector<std::string> warnings;
};

/// Writes `g` (a session's graph, edited or not) to `outPath` as an ONNX model (issue 49). The model `g`
/// was imported from (g.path) is read again for what the IR does not keep: every initializer whose dims are
/// unchanged is copied from it byte for byte (an external one keeps its reference: a graph-only model
/// exports graph-only; present weight files are copied beside the output when it is in another folder),
/// and its functions, metadata, opset imports and producer are kept; value_info is dropped (shape
/// inference rebuilds it). Nodes are written in topological order, each with its name (the importer's
/// "<op>_<index>" for one the file left unnamed, so a config's node_info matches) and its attributes as
/// the session holds them. The model is checked with onnx's checker and strict shape inference before it
/// is written (skipped with a warning for an IR version this onnx does not know); the file is written
/// through a temporary file, never over the source model or its weights. Throws ExportError.
OnnxExportReport exportOnnx(const Graph& g, const std::string& outPath);

} // namespace bpu
