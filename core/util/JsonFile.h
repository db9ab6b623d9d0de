// SPDX-License-Identifier: MIT
#pragma once

#include "SafeFile.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bpu {

/// Parses JSON text from a user file. A syntax error says where (line and column) but never quotes the
/// bytes (the file may be anything, e.g. --target /etc/shadow); nesting deeper than 64 levels is refused
/// (no BpuScope file nests beyond 5). Throws FileError naming `file`.
nlohmann::json parseJsonText(const std::string& text, const std::string& file);

/// readUserFile() + parseJsonText(): the one way a user's JSON file (edit list, target profile, project)
/// is read. Throws FileError.
nlohmann::json readJsonFile(const std::string& path, const FileKind& kind);

} // namespace bpu
