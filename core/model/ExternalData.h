// SPDX-License-Identifier: MIT
#pragma once

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

namespace bpu {

/// Where an external-data tensor says its bytes are. The file is never opened: only its presence is checked.
struct ExternalRef {
    std::string location;
    bool present = false;
};

/// Vets tensors' external-data locations against the model's folder, as onnx's own loader does: an
/// absolute path, a `..` component, or a path that resolves (through symlinks) outside the folder makes
/// the model hostile and throws ImportError. One per import: exporters point every weight at one or a few
/// files, and resolving a location touches the file system (canonical paths, a stat), so each distinct
/// location is resolved once (a 100k-node model has ~100k external tensors). Internal to core.
class ExternalResolver {
public:
    ExternalResolver(std::string modelPath, std::filesystem::path folder);
    ExternalRef resolve(const onnx::TensorProto& tensor);

private:
    std::string modelPath_;
    std::filesystem::path folder_;
    std::optional<std::filesystem::path> base_;     ///< the folder, canonical; resolved on first use
    std::unordered_map<std::string, bool> present_; ///< vetted location -> file present
};

} // namespace bpu
