// SPDX-License-Identifier: MIT
#include "NamedIds.h"

namespace bpu {

namespace {

/// One flag per id of a table of `count`, set where `find(name)` names one.
template <typename Find>
std::vector<uint8_t> marked(std::size_t count, const std::set<std::string>& names, const Find& find) {
    std::vector<uint8_t> mask;
    if (names.empty())
        return mask;
    mask.assign(count, 0);
    for (const std::string& name : names)
        if (const auto id = find(name); id.valid())
            mask[id.value] = 1;
    return mask;
}

} // namespace

std::vector<uint8_t> nodesNamed(const Graph& g, const std::set<std::string>& names) {
    return marked(g.nodes.size(), names, [&g](const std::string& n) { return g.findNode(n); });
}

std::vector<uint8_t> tensorsNamed(const Graph& g, const std::set<std::string>& names) {
    return marked(g.tensors.size(), names, [&g](const std::string& n) { return g.findTensor(n); });
}

} // namespace bpu
