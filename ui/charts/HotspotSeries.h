// SPDX-License-Identifier: MIT
#pragma once

#include "core/report/ChartData.h"

namespace bpu::ui::charts {

/// Category of a cost-row bar (after the placements BPU, CPU, folded): a pass, a transition or the runtime
/// overhead, which belongs to no single layer.
constexpr int kCostRowCategory = 3;

/// The dock's "Top layers" bars: core's hotspot list (core/cost/Hotspots.h), so the cost rows (input
/// conversion, quantize / dequantize, transitions, runtime overhead) rank beside the layers instead of
/// vanishing from the chart. Layers are coloured by placement, cost rows by kCostRowCategory; a row's bar
/// selects the node it is charged next to.
report::BarSeries topHotspotSeries(const Graph& g, const AnalysisResult& r, const CostEstimate& c, size_t n);

} // namespace bpu::ui::charts
