// SPDX-License-Identifier: MIT
#include "CostTerms.h"

#include "CostModel.h"
#include "core/analysis/Roofline.h"

#include <cmath>

namespace bpu {

ParamValue paramValue(const TargetProfile& t, const std::string& key) {
    for (const auto& p : t.parameters())
        if (p.key == key)
            return {p.key, p.param->value, p.param->estimate, p.param->note, p.param->identified};
    return {};
}

namespace {

std::vector<ParamValue> params(const TargetProfile& t, std::initializer_list<const char*> keys) {
    std::vector<ParamValue> out;
    for (const char* k : keys)
        out.push_back(paramValue(t, k));
    return out;
}

void bpuTerms(std::vector<FormulaTerm>& out, const Graph& g, const AnalysisResult& r, const CostEstimate& c,
              const TargetProfile& t, NodeId id) {
    const NodeAnalysis& a = r.nodes[id.value];
    const NodeCost& nc = c.nodes[id.value];
    const std::vector<NodeId> members = CostModel::layerMembers(r, id);
    const bool head = members.front() == id;

    FormulaTerm compute{"compute", a.computeUs, {}, {}, {}};
    if (!head) {
        compute.formula = "0: runs in the fused group head's output stage";
    } else {
        const ComputeRate rate = bpuComputeRate(a, isDepthwiseConv(g, g.node(id)), t);
        compute.formula = rate.formula;
        compute.inputs = {{rate.workName, a.computeUs * rate.perSecond / 1e6}};
        for (const char* k : rate.params)
            compute.params.push_back(paramValue(t, k));
    }
    out.push_back(std::move(compute));
    out.push_back({"memory (DDR)",
                   a.memoryUs,
                   "DDR bytes / (ddr_bandwidth_gbs x ddr_effective_fraction); feature maps held in the SRAM "
                   "budget (sram_budget_bytes) or streamed within stream_window_steps cost no DDR",
                   {{"DDR bytes", double(a.ddrBytes)}},
                   params(t, {"ddr_bandwidth_gbs", "ddr_effective_fraction", "sram_budget_bytes",
                              "stream_window_steps"})});
    double layerC = 0, layerM = 0;
    for (NodeId m : members) {
        layerC += r.nodes[m.value].computeUs;
        layerM += r.nodes[m.value].memoryUs;
    }
    const double layer = CostModel::pipelinedUs(layerC, layerM, t);
    out.push_back({members.size() > 1 ? "layer (fused group)" : "layer",
                   layer + t.layerFixedUs(),
                   "max(C, M) + (1 - load_compute_overlap) x min(C, M) + layer_fixed_cycles / bpu_clock_ghz",
                   {{"C: compute of the layer, us", layerC}, {"M: memory of the layer, us", layerM}},
                   params(t, {"load_compute_overlap", "layer_fixed_cycles", "bpu_clock_ghz"})});
    const double work = layerC + layerM;
    FormulaTerm share{"node's part", nc.latencyUs, {}, {}, {}};
    if (members.size() > 1) {
        share.formula = "(layer - fixed) x (node compute + memory) / (C + M)" +
                        std::string(head ? " + fixed (the head carries it)" : "");
        share.inputs = {{"node compute + memory, us", a.computeUs + a.memoryUs}, {"C + M, us", work}};
    } else {
        share.formula = "the whole layer";
    }
    out.push_back(std::move(share));
}

} // namespace

std::vector<FormulaTerm> nodeCostTerms(const Graph& g, const AnalysisResult& r, const CostEstimate& c,
                                       const TargetProfile& t, NodeId id) {
    std::vector<FormulaTerm> out;
    if (!id.valid() || id.value >= r.nodes.size() || id.value >= c.nodes.size())
        return out;
    const NodeAnalysis& a = r.nodes[id.value];
    const NodeCost& nc = c.nodes[id.value];
    if (a.assumedFree) {
        out.push_back({"removed", 0, "0: assumed removed (what-if assume_removed)", {}, {}});
        return out;
    }
    if (a.placement == Placement::BPU) {
        bpuTerms(out, g, r, c, t, id);
    } else if (a.placement == Placement::CPU && CostModel::runsOnCpu(g.node(id))) {
        const NodeMetrics& m = r.metrics[id.value];
        out.push_back({"CPU compute",
                       nc.computeUs,
                       "(2 x MACs + ops) / cpu_gflops",
                       {{"MACs", double(m.macs)}, {"ops", double(m.ops)}},
                       params(t, {"cpu_gflops"})});
        out.push_back({"CPU memory",
                       nc.memoryUs,
                       "(input + output + weight bytes) / cpu_bandwidth_gbs",
                       {{"bytes", double(m.inputBytes + m.outputBytes + m.weightBytes)}},
                       params(t, {"cpu_bandwidth_gbs"})});
    }
    // The rows of their own next to this node (input conversion, Q/DQ passes, requantize, CPU<->BPU
    // switches): not in its latency, each with the formula the cost engine used (CostRows.cpp).
    for (const CostRow& row : c.rows)
        if (row.node == id)
            out.push_back({row.label, row.us, row.formula, {{"elements", double(row.elements)}}, {}});
    return out;
}

} // namespace bpu
