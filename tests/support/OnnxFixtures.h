// SPDX-License-Identifier: MIT
#pragma once

// Tiny ONNX models built through onnx's own protobuf API, written to a temp folder for the importer.

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace fixtures {

/// A model under construction: add inputs, initializers and nodes, then save().
class ModelBuilder {
public:
    explicit ModelBuilder(int opset = 13);
    onnx::ModelProto& proto() { return model_; }
    onnx::GraphProto& graph() { return *model_.mutable_graph(); }

    /// Graph input; a negative dim becomes a symbolic dim named `sym` (or "N").
    void input(const std::string& name, std::vector<int64_t> dims, int dtype = onnx::TensorProto::FLOAT,
               const std::string& sym = "N");
    void output(const std::string& name, int dtype = onnx::TensorProto::FLOAT);
    /// Initializer with dims only (values zero-filled float, or given int64 values).
    void weight(const std::string& name, std::vector<int64_t> dims, int dtype = onnx::TensorProto::FLOAT);
    void ints(const std::string& name, std::vector<int64_t> values);
    /// Initializer stored as external data at `location` (never written).
    void externalWeight(const std::string& name, std::vector<int64_t> dims, const std::string& location);
    onnx::NodeProto& node(const std::string& op, std::vector<std::string> inputs, std::vector<std::string> outputs,
                          const std::string& name = {});
    std::string save(const std::string& fileName) const;

private:
    onnx::ModelProto model_;
};

void setInts(onnx::NodeProto& n, const std::string& key, std::vector<int64_t> v);
void setInt(onnx::NodeProto& n, const std::string& key, int64_t v);
void setFloat(onnx::NodeProto& n, const std::string& key, float v);

/// A fresh folder under the system temp dir, unique per test process.
std::string tempDir();
/// Writes raw bytes to a file in tempDir() and returns its path.
std::string writeBytes(const std::string& fileName, const std::string& bytes);

} // namespace fixtures
