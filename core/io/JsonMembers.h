// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bpu {

// Two places one JSON object's members can go, with the same calls: a function that lists an object's
// members once, as a template over the sink, builds the document (JsonObjectBuilder) and streams the same
// text without building it (PrettyObjectWriter). The node table of analyze --json (~1.4 KB per node, 0.14
// GB at 100k nodes) is written by the second: an nlohmann object per node cost ~80 allocations and most of
// the command's writing time.

/// Members into an nlohmann object.
class JsonObjectBuilder {
public:
    void str(std::string_view key, std::string_view v) { j_[std::string(key)] = std::string(v); }
    void integer(std::string_view key, int64_t v) { j_[std::string(key)] = v; }
    void number(std::string_view key, double v) { j_[std::string(key)] = v; }
    void boolean(std::string_view key, bool v) { j_[std::string(key)] = v; }
    void null(std::string_view key) { j_[std::string(key)] = nullptr; }
    void ints(std::string_view key, const std::vector<int64_t>& v) { j_[std::string(key)] = v; }
    void strings(std::string_view key, const std::vector<std::string>& v) { j_[std::string(key)] = v; }

    nlohmann::json take() { return std::move(j_); }

private:
    nlohmann::json j_ = nlohmann::json::object();
};

/// Members straight into text, exactly as nlohmann's dump(2) writes the same object `depth` levels deep in a
/// document (the opening brace where the caller is; members at 2 * (depth + 1) spaces). dump writes an
/// object's members in key order (its objects are std::maps): the calls must come in that order.
class PrettyObjectWriter {
public:
    PrettyObjectWriter(std::string& out, size_t depth)
        : out_(out)
        , depth_(depth) {}

    void str(std::string_view key, std::string_view v);
    void integer(std::string_view key, int64_t v);
    void number(std::string_view key, double v);
    void boolean(std::string_view key, bool v);
    void null(std::string_view key);
    void ints(std::string_view key, const std::vector<int64_t>& v);
    void strings(std::string_view key, const std::vector<std::string>& v);
    /// Closes the object ("{}" if it got no member).
    void finish();

private:
    void key(std::string_view k);
    void list(size_t n, const auto& item);

    std::string& out_;
    size_t depth_;
    std::string_view last_; ///< the previous key: keys must ascend
    bool open_ = false;
};

/// `v` as a JSON string literal, exactly as nlohmann's dump writes it (escapes; it throws on invalid UTF-8).
void appendJsonString(std::string& out, std::string_view v);
/// `v` as nlohmann's dump writes a double: the shortest text that reads back the same, "null" if not finite.
void appendJsonNumber(std::string& out, double v);

} // namespace bpu
