// SPDX-License-Identifier: MIT
#include "Hotspots.h"

#include <algorithm>
#include <map>
#include <utility>

namespace bpu {

std::vector<HotspotItem> hotspots(const Graph& g, const CostEstimate& c, size_t limit) {
    std::vector<HotspotItem> items;
    items.reserve(g.nodes.size() + c.rows.size());
    const double total = c.totalUs > 0 ? c.totalUs : 1.0;
    for (NodeId id : g.topoOrder)
        if (id.value < c.nodes.size() && c.nodes[id.value].latencyUs > 0)
            items.push_back({id, -1, c.nodes[id.value].latencyUs, c.nodes[id.value].latencyUs / total});
    for (size_t i = 0; i < c.rows.size(); ++i)
        if (c.rows[i].us > 0)
            items.push_back({c.rows[i].node, static_cast<int>(i), c.rows[i].us, c.rows[i].us / total});
    std::stable_sort(items.begin(), items.end(),
                     [](const HotspotItem& a, const HotspotItem& b) { return a.us > b.us; });
    if (limit > 0 && items.size() > limit)
        items.resize(limit);
    return items;
}

std::vector<double> matchingRowUs(const CostEstimate& c, const CostEstimate& baseline) {
    std::map<std::pair<CostRowKind, std::string>, double> before;
    for (const CostRow& b : baseline.rows)
        before[{b.kind, b.label}] = b.us;
    std::vector<double> out;
    out.reserve(c.rows.size());
    for (const CostRow& r : c.rows) {
        const auto it = before.find({r.kind, r.label});
        out.push_back(it == before.end() ? 0.0 : it->second);
    }
    return out;
}

std::string hotspotLabel(const Graph& g, const CostEstimate& c, const HotspotItem& item) {
    return item.isRow() ? c.rows[static_cast<size_t>(item.row)].label : g.node(item.node).name;
}

std::string hotspotKind(const Graph& g, const CostEstimate& c, const HotspotItem& item) {
    return item.isRow() ? costRowKindName(c.rows[static_cast<size_t>(item.row)].kind)
                        : g.node(item.node).opType;
}

} // namespace bpu
