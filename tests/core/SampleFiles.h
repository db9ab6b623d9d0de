// SPDX-License-Identifier: MIT
#pragma once
// The bundled samples (bpu::test::samplesDir(), TestPaths.h) and the s100 profile, shared by the
// core tests that run over every sample.
#include "TestPaths.h"
#include "core/target/TargetProfile.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace samples {

inline std::shared_ptr<const bpu::TargetProfile> s100() {
    static const auto t = std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100"));
    return t;
}

inline std::string samplePath(const std::string& file) {
    return bpu::test::samplesDir() + "/" + file;
}

/// Every *.onnx in samples/, sorted by name.
inline std::vector<std::string> sampleFiles() {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(bpu::test::samplesDir()))
        if (e.path().extension() == ".onnx")
            out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace samples
