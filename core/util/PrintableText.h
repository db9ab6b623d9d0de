// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bpu {

/// `s` made safe to show on a terminal, in a log line or a GUI label: control characters (C0, DEL, C1),
/// bidi overrides and bytes that are not UTF-8 become visible escapes ("\n", "\x1b", "\u202e"), so a name
/// in a model can neither move the cursor, recolour the terminal, forge a second line nor reorder text.
/// Valid UTF-8 text (CJK names) is kept. Longer than `maxBytes`: cut at a character boundary and marked
/// with "...(N more bytes, #hash)" (the hash of the whole text keeps long names with a common start apart).
std::string printable(std::string_view s, size_t maxBytes = std::string_view::npos);

/// True if printable(s) == s (no escape needed and within no limit).
bool isPrintable(std::string_view s);

/// A name from a model file for the IR: printable() with a length cap (a 1 MB node name would otherwise
/// flood every message and label that shows it).
inline std::string printableName(std::string_view s) {
    return printable(s, 1024);
}

} // namespace bpu
