// SPDX-License-Identifier: MIT
// Sections 4 (charts) and 5 (graph overview).
#include "ChartData.h"
#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/analysis/AnalysisResult.h"

#include <cmath>

namespace bpu::report::detail {

namespace {

/// The whole-model drawings say something only while a reader can follow the boxes: beyond this many
/// (constant-free) nodes an A4 page shrinks each box to a coloured dot of a few points and the edges
/// merge into a tangle (ssdlite320's 1,300-node detection head is one), so the section keeps only the
/// hotspot's neighbourhood. yolov8n (about 215) and resnet50 (about 120) stay well under it.
constexpr size_t kMaxOverviewNodes = 600;

Table barTable(const BarSeries& s, const std::string& label, const std::string& value,
               const std::string& detail) {
    Table t = makeTable({"#", label, value, detail}, {Align::Right, Align::Left, Align::Right, Align::Right});
    t.widths = {0.4, 5, 1.4, 1.8};
    for (size_t i = 0; i < s.items.size(); ++i)
        t.rows.push_back({std::to_string(i + 1), s.items[i].label,
                          fmt::number(std::round(s.items[i].value * 10) / 10), s.items[i].detail});
    return t;
}

} // namespace

Section chartsSection(const Context& c) {
    Section sec;
    sec.id = "charts";
    sec.title = "Charts";

    ChartBlock latency;
    latency.kind = ChartKind::LayerLatency;
    latency.bars = topLayerLatency(c.g, c.r, c.c, 20);
    latency.caption = "Layer latency: the " + std::to_string(latency.bars.items.size()) +
                      " slowest nodes (bar colour = placement; numbers in section 3).";
    sec.blocks.push_back(latency);

    ChartBlock roof;
    roof.kind = ChartKind::Roofline;
    roof.roofline = roofline(c.g, c.r, c.c, c.t);
    const RooflineData& rd = roof.roofline;
    roof.caption =
        "Roofline: intensity (padded MACs per DDR byte, log) vs achieved throughput (MACs per second of "
        "the node's estimated time without the Q/DQ passes charged to it, log) for " +
        std::to_string(rd.points.size()) +
        " MAC-bearing BPU nodes; the roof is min(peak x dense-conv "
        "efficiency, intensity x effective DDR bandwidth), the ridge at " +
        fmt::number(rd.ridgeIntensity) + " MACs/byte.";
    roof.fallback = makeTable({"Bound", "Nodes", "Latency (us)", "Share of model"},
                              {Align::Left, Align::Right, Align::Right, Align::Right});
    for (Bound b : {Bound::Compute, Bound::Memory}) {
        int nodes = 0;
        double us = 0;
        for (const auto& p : rd.points)
            if (p.bound == b) {
                ++nodes;
                us += p.latencyUs;
            }
        roof.fallback.rows.push_back({boundName(b), std::to_string(nodes), fmt::us(us),
                                      fmt::percent(c.c.totalUs > 0 ? us / c.c.totalUs : 0)});
    }
    sec.blocks.push_back(roof);

    ChartBlock pad;
    pad.kind = ChartKind::PaddingWaste;
    pad.bars = paddingWastePerLayer(c.g, c.r, 20);
    pad.caption = "Padding waste per layer: the " + std::to_string(pad.bars.items.size()) +
                  " nodes whose outputs waste most bytes to BPU alignment (KiB; label = waste ratio).";
    pad.fallback = barTable(pad.bars, "Node", "Waste (KiB)", "Waste ratio");
    sec.blocks.push_back(pad);

    ChartBlock ops;
    ops.kind = ChartKind::OpBreakdown;
    ops.bars = opTypeBreakdown(c.g, c.c, 15);
    ops.caption = "Op-type breakdown: estimated latency summed per operator type.";
    ops.fallback = barTable(ops.bars, "Op type", "Latency (us)", "Share, nodes");
    sec.blocks.push_back(ops);
    return sec;
}

Section graphSection(const Context& c, const GraphOverview& o) {
    Section sec;
    sec.id = "graph";
    sec.title = "Graph overview";
    const auto original = [&](NodeId id) {
        return o.sourceNode[id.value];
    };
    const size_t drawn = o.graph ? o.graph->nodes.size() : 0;
    const bool whole = drawn <= kMaxOverviewNodes;
    std::string text;
    if (whole) {
        text = "The whole model laid out top to bottom (layered layout; fused groups drawn as one box), "
               "coloured by placement and by padding waste ratio. Long models are cut into columns that read "
               "left to right.";
        if (o.omittedConstants > 0)
            text += " " + fmt::plural(o.omittedConstants, "node") +
                    " that compute only constants (Constant, arithmetic on constants; folded at compile "
                    "time) are left out of the drawings.";
    } else {
        text = "The whole model (" + fmt::count(int64_t(drawn)) +
               " nodes without its constants) is too large to draw legibly on a page; the placement and "
               "padding of every node are in `analyze --json` and in the workbench's graph view.";
    }
    text += " The zoomed view shows the neighbourhood of the top hotspot " +
            (o.focus.valid()
                 ? "'" + c.g.node(original(o.focus)).name + "' (" + c.g.node(original(o.focus)).opType + ")"
                 : std::string("-")) +
            " within " + std::to_string(o.focusRadius) +
            " hops, leaving out folded shape arithmetic (computed at compile time).";
    sec.blocks.push_back(Paragraph{text});
    if (whole) {
        sec.blocks.push_back(
            FigureBlock{FigureKind::GraphPlacement, "Placement: BPU, CPU, folded (constant-folded)."});
        sec.blocks.push_back(
            FigureBlock{FigureKind::GraphPadding,
                        "Padding waste ratio of each node's outputs (viridis: dark = none, yellow = "
                        "most; grey = not padded: off the BPU or constant)."});
    }
    sec.blocks.push_back(
        FigureBlock{FigureKind::GraphHotspot, "Neighbourhood of the top hotspot, by latency share."});

    std::vector<NodeId> near;
    near.reserve(o.focusNodes.size());
    for (NodeId oid : o.focusNodes)
        near.push_back(original(oid));
    sec.blocks.push_back(nodeCostTable(c, near, "Nodes around the top hotspot", near.size(), true));
    return sec;
}

} // namespace bpu::report::detail
