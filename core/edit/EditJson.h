// SPDX-License-Identifier: MIT
// Field readers for the edit kinds' fromJson parsers: a missing or mistyped field is an EditError naming
// the op and the field.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace bpu::editjson {

std::string str(const nlohmann::json& j, const char* key);
int64_t integer(const nlohmann::json& j, const char* key);
std::vector<std::string> strings(const nlohmann::json& j, const char* key);
std::vector<int64_t> integers(const nlohmann::json& j, const char* key);
bool has(const nlohmann::json& j, const char* key);

} // namespace bpu::editjson
