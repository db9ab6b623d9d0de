// SPDX-License-Identifier: MIT
// The BPU layers in the columns of hbm_perf's layer details (layer, origin ops, computing cost, load cost,
// store cost) plus the DDR bytes behind the load and store costs, and the model's DDR traffic per frame.
#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/cost/LatencyFigures.h"

#include <algorithm>

namespace bpu::report::detail {

namespace {

/// A table of this many of the slowest layers: the head of the distribution, where the time is.
constexpr size_t kLayerRows = 20;
/// Op types spelled out in the Ops cell before the rest are counted ("Conv+Sigmoid+Mul +2").
constexpr size_t kOpsShown = 4;

std::string opsText(const Graph& g, const BpuLayer& l) {
    std::string out;
    for (size_t i = 0; i < l.members.size() && i < kOpsShown; ++i)
        out += (i ? "+" : "") + g.node(l.members[i]).opType;
    if (l.members.size() > kOpsShown)
        out += " +" + std::to_string(l.members.size() - kOpsShown);
    return out;
}

} // namespace

Section layersSection(const Context& c) {
    Section sec;
    sec.id = "layers";
    sec.title = "BPU layers";
    const std::vector<BpuLayer> layers = bpuLayers(c.g, c.r, c.c, c.t);
    if (layers.empty()) {
        sec.blocks.push_back(Note{"No operator of this model runs on the BPU."});
        return sec;
    }
    // The layers add up to the BPU (static) time (BpuLayer::latencyUs): the total is read, not re-summed.
    const double timeUs = c.c.bpuUs;
    double computeUs = 0, loadUs = 0, storeUs = 0;
    int64_t loaded = 0, stored = 0;
    for (const BpuLayer& l : layers) {
        computeUs += l.computeUs;
        loadUs += l.loadUs;
        storeUs += l.storeUs;
        loaded += l.loadBytes;
        stored += l.storeBytes;
    }
    std::vector<size_t> order(layers.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return layers[a].latencyUs > layers[b].latencyUs; });
    const size_t shown = std::min(kLayerRows, layers.size());
    double shownUs = 0;
    for (size_t i = 0; i < shown; ++i)
        shownUs += layers[order[i]].latencyUs;

    const std::string perFrame =
        c.c.batch > 1 ? "per inference of batch " + std::to_string(c.c.batch) : std::string("per frame");
    sec.blocks.push_back(Paragraph{
        "The compiler runs the BPU part as " + fmt::plural(int64_t(layers.size()), "layer") +
        " (a fused group is one layer, named after its first operator). Their times add up to the BPU "
        "(static) figure, " +
        fmt::ms(c.c.bpuMs) + " ms; the " + std::to_string(shown) + " slowest take " +
        fmt::percent(timeUs > 0 ? shownUs / timeUs : 0) +
        " of it. Compute, load and store are the parts hbm_perf reports; they do not add up to the layer's "
        "time, which is the larger of its compute and DDR time, plus (1 - load_compute_overlap) of the "
        "smaller one, plus layer_fixed_cycles at the BPU clock. This profile sets load_compute_overlap = " +
        fmt::number(c.t.loadComputeOverlap.value) +
        " and layer_fixed_cycles = " + fmt::number(c.t.layerFixedCycles.value) + " (" +
        fmt::us(c.t.layerFixedUs()) + " us at " + fmt::number(c.t.bpuClockGhz.value) + " GHz)."});
    KeyValues ddr{"DDR traffic " + perFrame, {}};
    ddr.items = {{"Loaded", fmt::bytes(loaded) + " (weights and spilled inputs)"},
                 {"Stored", fmt::bytes(stored) + " (spilled outputs)"},
                 {"Total", fmt::bytes(loaded + stored) + ", " + fmt::us(loadUs + storeUs) +
                               " us at the effective DDR bandwidth"}};
    sec.blocks.push_back(ddr);

    TableBlock tb;
    tb.caption = "The " + std::to_string(shown) + " slowest BPU layers";
    tb.table =
        makeTable({"#", "Layer", "Ops", "Time (us)", "Compute (us)", "Load (us)", "Store (us)", "DDR (KiB)"},
                  {Align::Right, Align::Left, Align::Left, Align::Right, Align::Right, Align::Right,
                   Align::Right, Align::Right});
    tb.table.widths = {0.4, 4.6, 1.8, 1, 1.15, 0.95, 0.95, 1.05};
    for (size_t i = 0; i < shown; ++i) {
        const BpuLayer& l = layers[order[i]];
        tb.table.rows.push_back({std::to_string(i + 1), c.g.node(l.head).name, opsText(c.g, l),
                                 fmt::us(l.latencyUs), fmt::us(l.computeUs), fmt::us(l.loadUs),
                                 fmt::us(l.storeUs), fmt::kib(l.loadBytes + l.storeBytes)});
    }
    // The total row is over every layer, not the rows shown: it is the BPU (static) figure.
    tb.table.rows.push_back({"", "All " + fmt::plural(int64_t(layers.size()), "layer"), "", fmt::us(timeUs),
                             fmt::us(computeUs), fmt::us(loadUs), fmt::us(storeUs),
                             fmt::kib(loaded + stored)});
    sec.blocks.push_back(tb);
    return sec;
}

} // namespace bpu::report::detail
