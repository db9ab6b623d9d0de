// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace bpu {

/// A text that many records repeat, held once: a placement reason is the operator table's line for nearly
/// every node (98k BPU nodes of a 100k-node model say "in the operator table (...)"). Each record holds a
/// shared pointer to it rather than a copy: every re-analysis after an edit rewrote 100k string buffers
/// scattered over the heap, and at that size they no longer fit the CPU caches (~5% of an edit's
/// re-estimate). Immutable: assigning new text makes a new one; an empty text holds nothing.
class SharedText {
public:
    SharedText() = default;
    // Implicit: a reason composed on the spot ("dtype: " + why) is assigned as it is written.
    SharedText(std::string text)
        : text_(text.empty() ? nullptr : std::make_shared<const std::string>(std::move(text))) {}
    SharedText(const char* text)
        : SharedText(std::string(text)) {}

    const std::string& str() const { return text_ ? *text_ : empty_(); }
    void clear() { text_.reset(); }
    bool startsWith(std::string_view prefix) const { return std::string_view(str()).starts_with(prefix); }

private:
    static const std::string& empty_() {
        static const std::string none;
        return none;
    }
    std::shared_ptr<const std::string> text_;
};

} // namespace bpu
