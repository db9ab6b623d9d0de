// SPDX-License-Identifier: MIT
#include "NamedIds.h"

namespace bpu {

std::vector<uint8_t> nodesNamed(const Graph& g, const std::set<std::string>& names) {
    std::vector<uint8_t> mask;
    if (names.empty())
        return mask;
    mask.assign(g.nodes.size(), 0);
    for (const std::string& name : names)
        if (const NodeId id = g.findNode(name); id.valid())
            mask[id.value] = 1;
    return mask;
}

std::vector<uint8_t> tensorsNamed(const Graph& g, const std::set<std::string>& names) {
    std::vector<uint8_t> mask;
    if (names.empty())
        return mask;
    mask.assign(g.tensors.size(), 0);
    for (const std::string& name : names)
        if (const TensorId id = g.findTensor(name); id.valid())
            mask[id.value] = 1;
    return mask;
}

} // namespace bpu
