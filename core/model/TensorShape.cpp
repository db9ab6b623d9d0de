// SPDX-License-Identifier: MIT
#include "TensorShape.h"

#include <limits>

namespace bpu {

TensorShape::TensorShape(std::vector<int64_t> d)
    : rankKnown(true)
    , dims(std::move(d)) {}

const std::string& TensorShape::symbol(size_t i) const {
    static const std::string none;
    return i < symbols.size() ? symbols[i] : none;
}

void TensorShape::setSymbol(size_t i, std::string name) {
    if (name.empty() && i >= symbols.size())
        return; // nothing to clear: the table stays unallocated
    if (symbols.size() < dims.size())
        symbols.resize(dims.size());
    if (i < symbols.size())
        symbols[i] = std::move(name);
}

bool TensorShape::fullyKnown() const {
    if (!rankKnown)
        return false;
    for (int64_t d : dims)
        if (d < 0)
            return false;
    return true;
}

std::optional<int64_t> checkedProduct(const std::vector<int64_t>& dims) {
    int64_t p = 1;
    for (int64_t d : dims) {
        if (d < 0)
            return std::nullopt;
        if (d != 0 && p > std::numeric_limits<int64_t>::max() / d)
            return std::nullopt;
        p *= d;
    }
    return p;
}

std::optional<int64_t> TensorShape::elements() const {
    if (!rankKnown)
        return std::nullopt;
    return checkedProduct(dims);
}

std::string TensorShape::toString() const {
    if (!rankKnown)
        return "?";
    if (dims.empty())
        return "scalar";
    // A rank-100000 input would give a 200 kB string to every label and message that shows it.
    constexpr size_t kShown = 16;
    const bool elide = dims.size() > 2 * kShown;
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (elide && i == kShown) {
            s += "x...(" + std::to_string(dims.size()) + " dims)";
            break;
        }
        if (i)
            s += 'x';
        if (dims[i] >= 0)
            s += std::to_string(dims[i]);
        else if (!symbol(i).empty())
            s += symbol(i);
        else
            s += '?';
    }
    return s;
}

} // namespace bpu
