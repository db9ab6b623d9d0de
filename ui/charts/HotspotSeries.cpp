// SPDX-License-Identifier: MIT
#include "HotspotSeries.h"

#include "core/analysis/AnalysisResult.h"
#include "core/cost/Hotspots.h"
#include "core/report/ReportFormat.h"

namespace bpu::ui::charts {

report::BarSeries topHotspotSeries(const Graph& g, const AnalysisResult& r, const CostEstimate& c, size_t n) {
    report::BarSeries s;
    s.title = "Top layers and passes by estimated latency";
    s.valueAxis = "latency (us)";
    s.categories = report::placementCategories();
    s.categories.push_back("pass / overhead");
    for (const HotspotItem& item : hotspots(g, c, n)) {
        report::BarItem b;
        b.label = hotspotLabel(g, c, item);
        b.value = item.us;
        b.detail = report::fmt::percent(item.share);
        b.node = item.node;
        if (item.isRow()) {
            b.category = kCostRowCategory;
        } else {
            switch (r.nodes[item.node.value].placement) {
            case Placement::BPU:
                b.category = 0;
                break;
            case Placement::CPU:
                b.category = 1;
                break;
            case Placement::Folded:
                b.category = 2;
                break;
            }
        }
        s.items.push_back(std::move(b));
    }
    return s;
}

} // namespace bpu::ui::charts
