// SPDX-License-Identifier: MIT
#include "ExternalData.h"

#include "ImportError.h"

namespace bpu {

namespace fs = std::filesystem;

ExternalResolver::ExternalResolver(std::string modelPath, fs::path folder)
    : modelPath_(std::move(modelPath))
    , folder_(std::move(folder)) {}

ExternalRef ExternalResolver::resolve(const onnx::TensorProto& t) {
    ExternalRef ref;
    for (const auto& kv : t.external_data())
        if (kv.key() == "location")
            ref.location = kv.value();
    auto who = [&] {
        return "initializer '" + t.name() + "'";
    }; // built only for a message: a model with thousands of external tensors mostly hits the cache
    if (ref.location.empty())
        throw ImportError(modelPath_, who() + " has external data without a location");
    if (auto it = present_.find(ref.location); it != present_.end()) {
        ref.present = it->second;
        return ref;
    }
    if (ref.location.find('\0') != std::string::npos)
        throw ImportError(modelPath_,
                          who() + " has an external-data location with a NUL byte (hostile file)");
    fs::path loc(ref.location);
    if (loc.is_absolute() || loc.has_root_name() || loc.has_root_directory())
        throw ImportError(modelPath_,
                          who() + ": external-data location '" + ref.location +
                              "' is an absolute path; only files inside the model's folder are read "
                              "(hostile file rejected)");
    for (const auto& part : loc)
        if (part == "..")
            throw ImportError(modelPath_,
                              who() + ": external-data location '" + ref.location +
                                  "' escapes the model's folder with '..' (hostile file rejected)");
    std::error_code ec;
    if (!base_)
        base_ = fs::weakly_canonical(folder_.empty() ? fs::path(".") : folder_, ec);
    fs::path full = fs::weakly_canonical(*base_ / loc, ec);
    if (!ec) {
        auto rel = full.lexically_relative(*base_);
        if (rel.empty() || *rel.begin() == "..")
            throw ImportError(modelPath_,
                              who() + ": external-data location '" + ref.location +
                                  "' resolves outside the model's folder (hostile file rejected)");
    }
    ref.present = fs::is_regular_file(full, ec);
    present_.emplace(ref.location, ref.present);
    return ref;
}

} // namespace bpu
