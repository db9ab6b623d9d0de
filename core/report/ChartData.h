// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisFwd.h"
#include "core/cost/CostEstimate.h"
#include "core/model/Graph.h"
#include "core/target/Placement.h"
#include "core/target/TargetProfile.h"

#include <string>
#include <vector>

namespace bpu::report {

/// The charts of the report and the GUI's chart dock.
enum class ChartKind { LayerLatency, Roofline, PaddingWaste, OpBreakdown };

/// One bar: a label, its value, a category index into BarSeries::categories and a short detail text.
struct BarItem {
    std::string label;
    double value = 0;
    int category = 0;
    std::string detail; ///< shown next to the bar / in a tooltip ("12.3%", "x4 nodes")
    NodeId node;        ///< the node a per-layer bar stands for (invalid for aggregates)
};

/// A ranked bar chart, largest first.
struct BarSeries {
    std::string title;
    std::string valueAxis;               ///< "latency (us)"
    std::vector<std::string> categories; ///< legend names, e.g. placements
    std::vector<BarItem> items;
};

/// One node on the roofline.
struct RooflinePoint {
    NodeId node;
    std::string label;
    double intensity = 0;     ///< padded MACs per DDR byte
    double macsPerSecond = 0; ///< achieved: real MACs / estimated node latency without its Q/DQ passes
    Bound bound{};            ///< Bound::None
    double latencyUs = 0;
    /// Its own flat roof (issue 63): the rate the cost model prices its work at (dense conv, depthwise conv,
    /// MatMul, int16 slowed), real MACs never faster than that.
    double roofMacsPerSecond = 0;
};

/// A flat roof of one rate kind other than the dense conv's (issue 63): where the points priced at it sit.
struct RooflineRoof {
    std::string name;         ///< "depthwise conv", "MatMul of two activations, int16"
    double macsPerSecond = 0; ///< peak x its efficiency (x int16_throughput_factor)
};

/// Roofline of the BPU from the profile and every MAC-bearing BPU node that moves DDR bytes.
struct RooflineData {
    std::vector<RooflinePoint> points;
    double peakMacsPerSecond = 0; ///< the TAE's peak (peak_int8_tops / 2)
    double roofMacsPerSecond = 0; ///< peak x dense_conv_efficiency: the flat roof
    double ddrBytesPerSecond = 0; ///< effective DDR bandwidth: the slanted roof
    double ridgeIntensity = 0;    ///< where they meet (MACs per byte)
    int computeBound = 0, memoryBound = 0;
    std::vector<RooflineRoof> otherRoofs; ///< the other rate kinds the points are priced at, by rate
    /// The roof at intensity x: min(roof, x * bandwidth).
    double roofAt(double x) const;
};

/// Names of Placement values in category order (BPU, CPU, folded), for bar categories.
const std::vector<std::string>& placementCategories();

/// The `n` nodes with the largest estimated latency, category = placement.
BarSeries topLayerLatency(const Graph& g, const AnalysisResult& r, const CostEstimate& c, size_t n = 20);
/// The roofline with one point per BPU node carrying MACs.
RooflineData roofline(const Graph& g, const AnalysisResult& r, const CostEstimate& c, const TargetProfile& t);
/// The `n` nodes whose outputs waste most bytes to alignment padding (value in KiB, detail = ratio), category
/// = index of the padding rule (0 G4.2, 1 G4.1).
BarSeries paddingWastePerLayer(const Graph& g, const AnalysisResult& r, size_t n = 20);
/// Estimated latency summed per op type, largest first (detail = node count); types past `n` are summed
/// into one "other" bar.
BarSeries opTypeBreakdown(const Graph& g, const CostEstimate& c, size_t n = 15);

/// Padding waste ratio of a node's outputs: wasted / padded bytes over the outputs that are padded; NaN when
/// no output is padded-applicable (off the BPU, unknown shape).
double nodeWasteRatio(const Graph& g, const AnalysisResult& r, NodeId id);
/// Padding waste bytes of a node's outputs.
int64_t nodeWasteBytes(const Graph& g, const AnalysisResult& r, NodeId id);

} // namespace bpu::report
