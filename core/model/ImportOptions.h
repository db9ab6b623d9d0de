// SPDX-License-Identifier: MIT
#pragma once

#include "../util/Progress.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bpu {

/// How to resolve what the file leaves open.
struct ImportOptions {
    /// Value for a symbolic or unknown leading (batch) dim of every model input.
    int64_t batch = 1;
    /// Full shapes for named inputs (`--input-shape NAME=1x3x640x640`); override what the file says.
    std::map<std::string, std::vector<int64_t>> inputShapes;
    Progress progress;
};

/// Parses "NAME=1x3x640x640" into (name, dims); throws std::invalid_argument with a readable reason.
std::pair<std::string, std::vector<int64_t>> parseInputShapeArg(const std::string& arg);

} // namespace bpu
