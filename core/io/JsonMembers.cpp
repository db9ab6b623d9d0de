// SPDX-License-Identifier: MIT
#include "JsonMembers.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cmath>

namespace bpu {

void appendJsonString(std::string& out, std::string_view v) {
    // Printable ASCII without a quote or backslash is written as it is (names, op types, reasons); anything
    // else is left to nlohmann, whose escapes and UTF-8 check the document form goes through too.
    for (const char ch : v) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
            out += nlohmann::json(std::string(v)).dump();
            return;
        }
    }
    out += '"';
    out += v;
    out += '"';
}

void appendJsonNumber(std::string& out, double v) {
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    // The formatting nlohmann's serializer calls (grisu2, "1.0", "1e-05"); test: tst_edits
    // objectWriterEqualsDump.
    std::array<char, 64> buf{};
    const char* end = nlohmann::detail::to_chars(buf.data(), buf.data() + buf.size(), v);
    out.append(buf.data(), static_cast<size_t>(end - buf.data()));
}

namespace {
void appendInteger(std::string& out, int64_t v) {
    std::array<char, 24> buf{};
    const auto res = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    out.append(buf.data(), static_cast<size_t>(res.ptr - buf.data()));
}
} // namespace

void PrettyObjectWriter::key(std::string_view k) {
    assert(last_.empty() || last_ < k);
    last_ = k;
    out_ += open_ ? ",\n" : "{\n";
    open_ = true;
    out_.append(2 * (depth_ + 1), ' ');
    out_ += '"';
    out_ += k; // keys are this program's own identifiers: nothing to escape
    out_ += "\": ";
}

void PrettyObjectWriter::list(size_t n, const auto& item) {
    if (n == 0) {
        out_ += "[]";
        return;
    }
    out_ += "[\n";
    for (size_t i = 0; i < n; ++i) {
        if (i)
            out_ += ",\n";
        out_.append(2 * (depth_ + 2), ' ');
        item(i);
    }
    out_ += '\n';
    out_.append(2 * (depth_ + 1), ' ');
    out_ += ']';
}

void PrettyObjectWriter::str(std::string_view k, std::string_view v) {
    key(k);
    appendJsonString(out_, v);
}

void PrettyObjectWriter::integer(std::string_view k, int64_t v) {
    key(k);
    appendInteger(out_, v);
}

void PrettyObjectWriter::number(std::string_view k, double v) {
    key(k);
    appendJsonNumber(out_, v);
}

void PrettyObjectWriter::boolean(std::string_view k, bool v) {
    key(k);
    out_ += v ? "true" : "false";
}

void PrettyObjectWriter::null(std::string_view k) {
    key(k);
    out_ += "null";
}

void PrettyObjectWriter::ints(std::string_view k, const std::vector<int64_t>& v) {
    key(k);
    list(v.size(), [&](size_t i) { appendInteger(out_, v[i]); });
}

void PrettyObjectWriter::strings(std::string_view k, const std::vector<std::string>& v) {
    key(k);
    list(v.size(), [&](size_t i) { appendJsonString(out_, v[i]); });
}

void PrettyObjectWriter::finish() {
    if (!open_) {
        out_ += "{}";
        return;
    }
    out_ += '\n';
    out_.append(2 * depth_, ' ');
    out_ += '}';
}

} // namespace bpu
