// SPDX-License-Identifier: MIT
#include "ChartData.h"
#include "core/analysis/AnalysisResult.h"
#include "core/analysis/Roofline.h"

#include "ReportFormat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace bpu::report {

double RooflineData::roofAt(double x) const {
    return std::min(roofMacsPerSecond, x * ddrBytesPerSecond);
}

const std::vector<std::string>& placementCategories() {
    static const std::vector<std::string> names{"BPU", "CPU", "folded"};
    return names;
}

namespace {

int placementIndex(Placement p) {
    switch (p) {
    case Placement::BPU:
        return 0;
    case Placement::CPU:
        return 1;
    case Placement::Folded:
        return 2;
    }
    return 0;
}

} // namespace

double nodeWasteRatio(const Graph& g, const AnalysisResult& r, NodeId id) {
    int64_t waste = 0, padded = 0;
    bool any = false;
    for (TensorId t : g.node(id).outputs) {
        if (!t.valid() || t.value >= r.tensors.size())
            continue;
        const TensorAnalysis& ta = r.tensors[t.value];
        if (!ta.padded.applies)
            continue;
        any = true;
        waste += ta.padded.wasteBytes;
        padded += ta.paddedBytes;
    }
    if (!any)
        return std::numeric_limits<double>::quiet_NaN();
    return padded ? double(waste) / double(padded) : 0.0;
}

int64_t nodeWasteBytes(const Graph& g, const AnalysisResult& r, NodeId id) {
    int64_t waste = 0;
    for (TensorId t : g.node(id).outputs)
        if (t.valid() && t.value < r.tensors.size())
            waste += r.tensors[t.value].padded.wasteBytes;
    return waste;
}

BarSeries topLayerLatency(const Graph& g, const AnalysisResult& r, const CostEstimate& c, size_t n) {
    BarSeries s;
    s.title = "Top layers by estimated latency";
    s.valueAxis = "latency (us)";
    s.categories = placementCategories();
    std::vector<NodeId> ids = g.topoOrder;
    std::stable_sort(ids.begin(), ids.end(), [&](NodeId a, NodeId b) {
        return c.nodes[a.value].latencyUs > c.nodes[b.value].latencyUs;
    });
    for (NodeId id : ids) {
        if (s.items.size() >= n || c.nodes[id.value].latencyUs <= 0)
            break;
        BarItem b;
        b.label = g.node(id).name;
        b.value = c.nodes[id.value].latencyUs;
        b.category = placementIndex(r.nodes[id.value].placement);
        b.detail = fmt::percent(c.nodes[id.value].share);
        b.node = id;
        s.items.push_back(std::move(b));
    }
    return s;
}

namespace {

/// "depthwise conv", "MatMul, int16": the rate kind a roof stands for, from the key its rate reads.
std::string roofName(const ComputeRate& rate) {
    static const std::pair<const char*, const char*> names[] = {
        {"dense_conv_efficiency", "dense conv"},
        {"group_conv_efficiency", "depthwise conv"},
        {"matmul_efficiency", "MatMul"},
        {"matmul_act_efficiency", "MatMul of two activations"}};
    std::string out = "compute";
    bool int16 = false;
    for (const char* key : rate.params) {
        for (const auto& [k, name] : names)
            if (std::string(key) == k)
                out = name;
        int16 = int16 || std::string(key) == "int16_throughput_factor";
    }
    return int16 ? out + ", int16" : out;
}

} // namespace

RooflineData roofline(const Graph& g, const AnalysisResult& r, const CostEstimate& c,
                      const TargetProfile& t) {
    RooflineData d;
    d.peakMacsPerSecond = t.peakMacsPerSecond();
    d.roofMacsPerSecond = t.peakMacsPerSecond() * t.denseConvEfficiency.value;
    d.ddrBytesPerSecond = t.effectiveDdrBytesPerSecond();
    d.ridgeIntensity = t.ridgeIntensity();
    for (NodeId id : g.topoOrder) {
        const NodeAnalysis& a = r.nodes[id.value];
        // The layer's own time (Q/DQ passes are rows of their own, never part of a node's latency).
        const double us = c.nodes[id.value].latencyUs;
        if (a.placement != Placement::BPU || a.macs <= 0 || a.ddrBytes <= 0 || us <= 0)
            continue;
        RooflinePoint p;
        p.node = id;
        p.label = g.node(id).name;
        p.intensity = a.intensity;
        p.macsPerSecond = double(a.macs) / (us * 1e-6);
        p.bound = a.bound;
        p.latencyUs = c.nodes[id.value].latencyUs;
        const ComputeRate rate = bpuComputeRate(a, isDepthwiseConv(g, g.node(id)), t);
        p.roofMacsPerSecond = rate.perSecond;
        if (std::abs(rate.perSecond - d.roofMacsPerSecond) > 1e-6 * d.roofMacsPerSecond &&
            std::none_of(d.otherRoofs.begin(), d.otherRoofs.end(), [&](const RooflineRoof& r) {
                return std::abs(r.macsPerSecond - rate.perSecond) <= 1e-6 * rate.perSecond;
            }))
            d.otherRoofs.push_back({roofName(rate), rate.perSecond});
        if (a.bound == Bound::Compute)
            ++d.computeBound;
        else if (a.bound == Bound::Memory)
            ++d.memoryBound;
        d.points.push_back(std::move(p));
    }
    return d;
}

BarSeries paddingWastePerLayer(const Graph& g, const AnalysisResult& r, size_t n) {
    BarSeries s;
    s.title = "Layers wasting most bytes to alignment padding";
    s.valueAxis = "padding waste (KiB)";
    s.categories = {"G4.2 conv-like", "G4.1 general"};
    struct Entry {
        NodeId id;
        int64_t waste;
    };
    std::vector<Entry> entries;
    for (NodeId id : g.topoOrder)
        if (int64_t w = nodeWasteBytes(g, r, id); w > 0)
            entries.push_back({id, w});
    std::stable_sort(entries.begin(), entries.end(),
                     [](const Entry& a, const Entry& b) { return a.waste > b.waste; });
    for (const Entry& e : entries) {
        if (s.items.size() >= n)
            break;
        PadRule rule = PadRule::None;
        for (TensorId t : g.node(e.id).outputs)
            if (t.valid() && r.tensors[t.value].padded.applies && rule == PadRule::None)
                rule = r.tensors[t.value].padded.rule;
        BarItem b;
        b.label = g.node(e.id).name;
        b.value = double(e.waste) / 1024.0;
        b.category = rule == PadRule::General ? 1 : 0;
        b.detail = fmt::percent(nodeWasteRatio(g, r, e.id));
        b.node = e.id;
        s.items.push_back(std::move(b));
    }
    return s;
}

BarSeries opTypeBreakdown(const Graph& g, const CostEstimate& c, size_t n) {
    BarSeries s;
    s.title = "Estimated latency by op type";
    s.valueAxis = "latency (us)";
    s.categories = {"op type"};
    struct Acc {
        double us = 0;
        int count = 0;
    };
    std::map<std::string, Acc> byOp;
    for (const Node& node : g.nodes) {
        Acc& a = byOp[node.opType];
        a.us += c.nodes[node.id.value].latencyUs;
        ++a.count;
    }
    std::vector<std::pair<std::string, Acc>> sorted(byOp.begin(), byOp.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.us > b.second.us; });
    Acc other;
    int otherTypes = 0;
    const double total = c.totalUs > 0 ? c.totalUs : 1.0;
    for (const auto& [op, acc] : sorted) {
        if (acc.us <= 0)
            continue;
        if (s.items.size() >= n) {
            other.us += acc.us;
            other.count += acc.count;
            ++otherTypes;
            continue;
        }
        s.items.push_back(
            {op, acc.us, 0, fmt::percent(acc.us / total) + ", " + fmt::plural(acc.count, "node"), {}});
    }
    if (otherTypes > 0)
        s.items.push_back({"other (" + std::to_string(otherTypes) + " types)",
                           other.us,
                           0,
                           fmt::percent(other.us / total) + ", " + fmt::plural(other.count, "node"),
                           {}});
    return s;
}

} // namespace bpu::report
