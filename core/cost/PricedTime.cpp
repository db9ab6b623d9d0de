// SPDX-License-Identifier: MIT
#include "PricedTime.h"

#include "CostModel.h"
#include "core/analysis/Roofline.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace bpu {

namespace {

/// The keys each kind of row reads, as CostRows.cpp prices it.
std::vector<std::string> rowKeys(CostRowKind k) {
    switch (k) {
    case CostRowKind::InputConversion:
        return {"input_conversion_passes", "vector_elements_per_cycle", "bpu_clock_ghz"};
    case CostRowKind::Quantize:
    case CostRowKind::Dequantize:
        return {"qdq_elements_per_us"};
    case CostRowKind::Requantize:
        return {"layer_fixed_cycles", "bpu_clock_ghz", "requantize_vector_passes",
                "vector_elements_per_cycle"};
    case CostRowKind::Transition:
        return {"cpu_bpu_switch_us"};
    case CostRowKind::RuntimeOverhead:
        return {"runtime_fixed_us", "cpu_bandwidth_gbs"};
    }
    return {};
}

} // namespace

PricedTime pricedTime(const Graph& g, const AnalysisResult& r, const CostEstimate& c, const TargetProfile& t,
                      bool twoThreads) {
    PricedTime out;
    auto add = [&out](const std::string& kind, std::vector<std::string> keys, double us) {
        PricedTime::Part& p = out.parts[kind];
        if (p.keys.empty())
            p.keys = std::move(keys);
        p.us += us;
    };
    // With two threads the CPU-side time is what thread_overlap hides behind the other thread's BPU time.
    auto cpuSide = [twoThreads](std::vector<std::string> keys) {
        if (twoThreads)
            keys.push_back("thread_overlap");
        return keys;
    };
    const std::vector<std::string> ddrKeys{"ddr_bandwidth_gbs", "ddr_effective_fraction", "sram_budget_bytes",
                                           "stream_window_steps"};
    for (size_t i = 0; i < r.nodes.size() && i < c.nodes.size() && i < g.nodes.size(); ++i) {
        const NodeAnalysis& a = r.nodes[i];
        const NodeId id{static_cast<uint32_t>(i)};
        if (a.assumedFree)
            continue;
        if (a.placement == Placement::BPU) {
            const ComputeRate rate = bpuComputeRate(a, isDepthwiseConv(g, g.node(id)), t);
            add("compute: " + rate.formula, {rate.params.begin(), rate.params.end()}, a.computeUs);
            add("DDR", ddrKeys, a.memoryUs);
            const std::vector<NodeId> members = CostModel::layerMembers(r, id);
            if (members.empty() || members.front() != id)
                continue;
            double layerC = 0, layerM = 0;
            for (NodeId m : members) {
                layerC += r.nodes[m.value].computeUs;
                layerM += r.nodes[m.value].memoryUs;
            }
            add("layer fixed", {"layer_fixed_cycles", "bpu_clock_ghz"}, t.layerFixedUs());
            add("load/compute overlap", {"load_compute_overlap"},
                layerC + layerM - CostModel::pipelinedUs(layerC, layerM, t));
        } else if (a.placement == Placement::Folded) {
            add("DDR", ddrKeys, a.memoryUs); // a fused group's member writing its output
        } else if (a.placement == Placement::CPU && CostModel::runsOnCpu(g.node(id))) {
            add("CPU compute", cpuSide({"cpu_gflops"}), c.nodes[i].computeUs);
            add("CPU memory", cpuSide({"cpu_bandwidth_gbs"}), c.nodes[i].memoryUs);
        }
    }
    for (const CostRow& row : c.rows)
        add(std::string("row: ") + costRowKindKey(row.kind),
            row.onBpu ? rowKeys(row.kind) : cpuSide(rowKeys(row.kind)), row.us);
    // Per image, as the gains are: a batch edit changes how many images one inference serves.
    for (auto& [kind, part] : out.parts)
        part.us /= std::max(1, c.batch);
    return out;
}

std::vector<std::string> keysCarryingChange(const PricedTime& before, const PricedTime& after, double share) {
    std::map<std::string, const PricedTime::Part*> kinds;
    for (const auto& [kind, p] : before.parts)
        kinds[kind] = &p;
    for (const auto& [kind, p] : after.parts)
        kinds.try_emplace(kind, &p);
    double total = 0;
    std::map<std::string, double> byKey;
    for (const auto& [kind, part] : kinds) {
        const auto b = before.parts.find(kind), a = after.parts.find(kind);
        const double change = std::abs((a == after.parts.end() ? 0.0 : a->second.us) -
                                       (b == before.parts.end() ? 0.0 : b->second.us));
        total += change;
        for (const std::string& k : std::set<std::string>(part->keys.begin(), part->keys.end()))
            byKey[k] += change;
    }
    std::vector<std::string> out;
    if (total <= 0)
        return out;
    for (const auto& [k, us] : byKey)
        if (us >= share * total)
            out.push_back(k);
    return out;
}

} // namespace bpu
