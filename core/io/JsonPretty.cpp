// SPDX-License-Identifier: MIT
#include "JsonPretty.h"

namespace bpu {

namespace {

/// A container with more entries than this is written entry by entry (a few KB of text at the most).
constexpr size_t kWholeDumpEntries = 256;

bool holdsLongList(const nlohmann::json& v) {
    if (!v.is_structured())
        return false;
    if (v.size() > kWholeDumpEntries)
        return true;
    for (const auto& child : v)
        if (holdsLongList(child))
            return true;
    return false;
}

/// `text` (a dump at indent 0) as it reads `indent` spaces deeper: after each line break. A dump holds no
/// raw line break but its own (control characters in strings are escaped).
void appendIndented(std::string& out, const std::string& text, size_t indent) {
    size_t from = 0;
    for (size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
        out.append(text, from, nl + 1 - from);
        out.append(indent, ' ');
    }
    out.append(text, from, std::string::npos);
}

} // namespace

void appendPretty(std::string& out, const nlohmann::json& v, size_t depth,
                  const std::function<void()>& spill) {
    if (!holdsLongList(v)) {
        appendIndented(out, v.dump(2), 2 * depth);
        return;
    }
    // nlohmann's pretty form: "{\n", each member at the next indent as "key": value, joined by ",\n", then a
    // line break and the closing bracket at this indent (an empty container, "{}" or "[]", never gets here).
    const bool object = v.is_object();
    out += object ? "{\n" : "[\n";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it, first = false) {
        if (!first)
            out += ",\n";
        out.append(2 * (depth + 1), ' ');
        if (object) {
            out += nlohmann::json(it.key()).dump();
            out += ": ";
        }
        appendPretty(out, it.value(), depth + 1, spill);
        spill();
    }
    out += '\n';
    out.append(2 * depth, ' ');
    out += object ? '}' : ']';
}

} // namespace bpu
