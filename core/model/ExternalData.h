// SPDX-License-Identifier: MIT
#pragma once

#include <onnx/onnx_pb.h>

#include <filesystem>
#include <string>

namespace bpu {

/// Where an external-data tensor says its bytes are. The file is never opened: only its presence is checked.
struct ExternalRef {
    std::string location;
    bool present = false;
};

/// Vets a tensor's external-data location against the model's folder, as onnx's own loader does: an
/// absolute path, a `..` component, or a path that resolves (through symlinks) outside the folder makes
/// the model hostile and throws ImportError. Internal to core.
ExternalRef resolveExternal(const std::string& modelPath, const std::filesystem::path& folder,
                            const onnx::TensorProto& tensor);

} // namespace bpu
