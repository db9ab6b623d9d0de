// SPDX-License-Identifier: MIT
#include "ExternalData.h"

#include "ImportError.h"

namespace bpu {

namespace fs = std::filesystem;

ExternalRef resolveExternal(const std::string& modelPath, const fs::path& folder, const onnx::TensorProto& t) {
    ExternalRef ref;
    for (const auto& kv : t.external_data())
        if (kv.key() == "location")
            ref.location = kv.value();
    const std::string who = "initializer '" + t.name() + "'";
    if (ref.location.empty())
        throw ImportError(modelPath, who + " has external data without a location");
    if (ref.location.find('\0') != std::string::npos)
        throw ImportError(modelPath, who + " has an external-data location with a NUL byte (hostile file)");
    fs::path loc(ref.location);
    if (loc.is_absolute() || loc.has_root_name() || loc.has_root_directory())
        throw ImportError(modelPath, who + ": external-data location '" + ref.location +
                                         "' is an absolute path; only files inside the model's folder are read "
                                         "(hostile file rejected)");
    for (const auto& part : loc)
        if (part == "..")
            throw ImportError(modelPath, who + ": external-data location '" + ref.location +
                                             "' escapes the model's folder with '..' (hostile file rejected)");
    std::error_code ec;
    fs::path base = fs::weakly_canonical(folder.empty() ? fs::path(".") : folder, ec);
    fs::path full = fs::weakly_canonical(base / loc, ec);
    if (!ec) {
        auto rel = full.lexically_relative(base);
        if (rel.empty() || *rel.begin() == "..")
            throw ImportError(modelPath, who + ": external-data location '" + ref.location +
                                             "' resolves outside the model's folder (hostile file rejected)");
    }
    ref.present = fs::is_regular_file(full, ec);
    return ref;
}

} // namespace bpu
