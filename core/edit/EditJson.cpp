// SPDX-License-Identifier: MIT
#include "EditJson.h"

#include "EditError.h"

namespace bpu::editjson {

namespace {
std::string opOf(const nlohmann::json& j) {
    return j.is_object() ? j.value("op", std::string("?")) : std::string("?");
}
} // namespace

bool has(const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && !j[key].is_null();
}

std::string str(const nlohmann::json& j, const char* key) {
    if (!has(j, key) || !j[key].is_string())
        throw EditError("edit '" + opOf(j) + "' needs a string '" + key + "'");
    return j[key].get<std::string>();
}

int64_t integer(const nlohmann::json& j, const char* key) {
    if (!has(j, key) || !j[key].is_number_integer())
        throw EditError("edit '" + opOf(j) + "' needs an integer '" + key + "'");
    return j[key].get<int64_t>();
}

std::vector<std::string> strings(const nlohmann::json& j, const char* key) {
    if (!has(j, key) || !j[key].is_array())
        throw EditError("edit '" + opOf(j) + "' needs an array '" + key + "'");
    std::vector<std::string> out;
    for (const auto& v : j[key]) {
        if (!v.is_string())
            throw EditError(std::string("'") + key + "' must hold strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

std::vector<int64_t> integers(const nlohmann::json& j, const char* key) {
    if (!has(j, key) || !j[key].is_array())
        throw EditError("edit '" + opOf(j) + "' needs an array '" + key + "'");
    std::vector<int64_t> out;
    for (const auto& v : j[key]) {
        if (!v.is_number_integer())
            throw EditError(opOf(j) + ": " + (std::string(key) == "shape" ? "dims" : key) +
                            " must be integers");
        out.push_back(v.get<int64_t>());
    }
    return out;
}

} // namespace bpu::editjson
