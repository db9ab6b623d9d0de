// SPDX-License-Identifier: MIT
#include "JsonFile.h"

#include <algorithm>

namespace bpu {

namespace {

constexpr int kMaxDepth = 64;

struct TooDeep {};

} // namespace

nlohmann::json parseJsonText(const std::string& text, const std::string& file) {
    using json = nlohmann::json;
    try {
        return json::parse(text, [](int depth, json::parse_event_t, json&) {
            if (depth > kMaxDepth)
                throw TooDeep{};
            return true;
        });
    } catch (const TooDeep&) {
        throw FileError(file, "not valid JSON for BpuScope: nested deeper than " + std::to_string(kMaxDepth) +
                                  " levels");
    } catch (const json::parse_error& e) {
        // e.what() quotes the bytes last read: say where instead. e.byte counts from 1.
        const size_t at = std::min(text.size(), e.byte > 0 ? static_cast<size_t>(e.byte - 1) : size_t{0});
        const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n'));
        const size_t newline = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
        const size_t column = at - (newline == std::string::npos ? 0 : newline + 1) + 1;
        throw FileError(file, "not valid JSON (syntax error at line " + std::to_string(line) + ", column " +
                                  std::to_string(column) + ")");
    } catch (const json::exception& e) {
        throw FileError(file, std::string("not valid JSON (") + e.what() + ")");
    }
}

nlohmann::json readJsonFile(const std::string& path, const FileKind& kind) {
    return parseJsonText(readUserFile(path, kind), path);
}

} // namespace bpu
