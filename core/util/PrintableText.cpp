// SPDX-License-Identifier: MIT
#include "PrintableText.h"

#include <cstdint>

namespace bpu {

namespace {

/// Length of the UTF-8 sequence starting at s[i] and its code point; 0 if it is not valid UTF-8 (overlong,
/// surrogate, beyond U+10FFFF or truncated).
size_t decodeUtf8(std::string_view s, size_t i, uint32_t& cp) {
    const auto b = [&](size_t k) {
        return static_cast<unsigned char>(s[i + k]);
    };
    const unsigned char c = b(0);
    size_t len = 0;
    if (c < 0x80) {
        cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (i + len > s.size())
        return 0;
    for (size_t k = 1; k < len; ++k) {
        if ((b(k) & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (b(k) & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

bool mustEscape(uint32_t cp) {
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||            // C0, DEL, C1 controls
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || // bidi embeddings/isolates
           cp == 0x200E || cp == 0x200F || cp == 0x061C ||                     // direction marks
           cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF;                       // line/para separators, BOM
}

void appendHex(std::string& out, const char* prefix, uint32_t v, int digits) {
    static const char* hex = "0123456789abcdef";
    out += prefix;
    for (int d = digits - 1; d >= 0; --d)
        out += hex[(v >> (4 * d)) & 0xF];
}

} // namespace

std::string printable(std::string_view s, size_t maxBytes) {
    std::string out;
    out.reserve(s.size() < 256 ? s.size() : 256);
    size_t i = 0;
    while (i < s.size()) {
        if (out.size() >= maxBytes) {
            // The hash of the whole text keeps two long names that share their start apart.
            uint64_t h = 1469598103934665603ull; // FNV-1a
            for (unsigned char c : s)
                h = (h ^ c) * 1099511628211ull;
            out += "...(" + std::to_string(s.size() - i) + " more bytes, ";
            appendHex(out, "#", static_cast<uint32_t>(h ^ (h >> 32)), 8);
            out += ")";
            break;
        }
        uint32_t cp = 0;
        const size_t len = decodeUtf8(s, i, cp);
        if (len == 0) {
            appendHex(out, "\\x", static_cast<unsigned char>(s[i]), 2);
            ++i;
            continue;
        }
        if (!mustEscape(cp)) {
            out.append(s.substr(i, len));
        } else if (cp == '\n') {
            out += "\\n";
        } else if (cp == '\r') {
            out += "\\r";
        } else if (cp == '\t') {
            out += "\\t";
        } else if (cp < 0x80) {
            appendHex(out, "\\x", cp, 2);
        } else {
            appendHex(out, "\\u", cp, 4);
        }
        i += len;
    }
    return out;
}

bool isPrintable(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        // Printable ASCII needs no decoding: nearly every name of a model, and the import asks about each
        // one.
        if (const auto c = static_cast<unsigned char>(s[i]); c >= 0x20 && c < 0x7F) {
            ++i;
            continue;
        }
        uint32_t cp = 0;
        const size_t len = decodeUtf8(s, i, cp);
        if (len == 0 || mustEscape(cp))
            return false;
        i += len;
    }
    return true;
}

} // namespace bpu
