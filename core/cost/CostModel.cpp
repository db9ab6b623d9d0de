// SPDX-License-Identifier: MIT
#include "CostModel.h"

#include "CostRows.h"

#include <algorithm>
#include <cstdint>
#include <span>

namespace bpu {

namespace {

void costBpuLayers(const Graph& g, const AnalysisResult& r, const TargetProfile& t, CostEstimate& e) {
    const double layerFixed = t.layerFixedUs(); // layer_fixed_cycles at the BPU clock
    // BPU layers: fused groups as one layer, every other BPU node its own.
    std::vector<bool> done(g.nodes.size(), false);
    for (NodeId id : g.topoOrder) {
        const NodeAnalysis& a = r.nodes[id.value];
        if (done[id.value] || a.placement != Placement::BPU || a.assumedFree)
            continue;
        const NodeId single[1] = {id};
        const FusedGroup* grp = r.group(a.fusionGroup);
        const std::span<const NodeId> members =
            grp ? std::span<const NodeId>(grp->nodes) : std::span<const NodeId>(single);
        double c = 0, m = 0;
        for (NodeId mem : members) {
            done[mem.value] = true;
            c += r.nodes[mem.value].computeUs;
            m += r.nodes[mem.value].memoryUs;
        }
        const double layer = CostModel::pipelinedUs(c, m, t) + layerFixed;
        // The layer is one BPU layer: its whole cost - the members' compute and DDR traffic pipelined
        // together (a spilled residual read by the Add, the output the folded Relu writes), and the fixed
        // cost - is the head's. The other members cost nothing of their own (they are "in group N"), so no
        // node the inspector calls folded carries time, and the nodes still add up to the BPU time (issue
        // 52).
        const NodeId head = members.front();
        for (NodeId mem : members)
            e.nodes[mem.value] = NodeCost{};
        NodeCost& hc = e.nodes[head.value];
        hc.computeUs = c;
        hc.fixedUs = layerFixed;
        hc.latencyUs = layer;
        hc.memoryUs = std::max(0.0, layer - layerFixed - c);
        e.bpuUs += layer;
    }
}

void costCpuNodes(const Graph& g, const AnalysisResult& r, const TargetProfile& t, CostEstimate& e) {
    const double cpuFlops = t.cpuGflops.value * 1e9, cpuBw = t.cpuBandwidthGBs.value * 1e9;
    for (size_t i = 0; i < r.nodes.size(); ++i) {
        const NodeAnalysis& a = r.nodes[i];
        if (a.placement != Placement::CPU || a.assumedFree || !CostModel::runsOnCpu(g.nodes[i]))
            continue;
        const NodeMetrics& m = r.metrics[i];
        NodeCost& nc = e.nodes[i];
        nc.computeUs = (2.0 * double(m.macs) + double(m.ops)) / cpuFlops * 1e6;
        nc.memoryUs = (double(m.inputBytes) + double(m.outputBytes) + double(m.weightBytes)) / cpuBw * 1e6;
        nc.latencyUs = nc.computeUs + nc.memoryUs;
        e.cpuUs += nc.latencyUs;
    }
}

} // namespace

double CostModel::pipelinedUs(double compute, double memory, const TargetProfile& t) {
    return std::max(compute, memory) + (1.0 - t.loadComputeOverlap.value) * std::min(compute, memory);
}

std::vector<NodeId> CostModel::layerMembers(const AnalysisResult& r, NodeId id) {
    const FusedGroup* grp = r.group(r.nodes[id.value].fusionGroup);
    return grp ? grp->nodes : std::vector<NodeId>{id};
}

NodeId CostModel::qdqOwner(const Graph& g, const QdqPass& p) {
    const Tensor& tensor = g.tensor(p.tensor);
    return p.node.valid()                                      ? p.node
           : p.kind == "dequantize" && tensor.producer.valid() ? tensor.producer
           : !tensor.consumers.empty()                         ? tensor.consumers.front()
                                                               : tensor.producer;
}

bool CostModel::runsOnCpu(const Node& n) {
    return n.opType != "QuantizeLinear" && n.opType != "DequantizeLinear";
}

double twoThreadPeriodUs(double bpuUs, double otherUs, double threadOverlap) {
    // Two threads share the one BPU core; each inference's CPU-side work (on its own CPU core) can run while
    // the other thread's inference holds the BPU. The BPU time never overlaps itself.
    return std::max(bpuUs + (1.0 - threadOverlap) * otherUs, (bpuUs + otherUs) / 2.0);
}

CostEstimate CostModel::estimate(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                                 const DeploySettings& deploy) {
    CostEstimate e;
    e.nodes.assign(g.nodes.size(), NodeCost{});
    e.batch = 1;
    for (TensorId in : g.inputs)
        if (g.tensor(in).shape.rank() == 4 && g.tensor(in).shape.dims[0] > 0) // NCHW images carry the batch
            e.batch = static_cast<int>(std::clamp<int64_t>(g.tensor(in).shape.dims[0], e.batch, INT32_MAX));

    costBpuLayers(g, r, t, e);
    costCpuNodes(g, r, t, e);
    addCostRows(g, r, t, deploy, e);

    e.totalUs = e.bpuUs + e.cpuUs + e.qdqUs + e.transitionUs + e.runtimeUs;
    e.bpuMs = e.bpuUs / 1000.0;
    e.latencyMs = e.totalUs / 1000.0;
    e.perImageMs = e.latencyMs / e.batch;
    e.fps = e.totalUs > 0 ? e.batch * 1e6 / e.totalUs : 0;
    e.fpsByThreads[0] = e.fps;
    const double period = twoThreadPeriodUs(e.bpuUs, e.totalUs - e.bpuUs, t.threadOverlap.value);
    e.fpsByThreads[1] = period > 0 ? e.batch * 1e6 / period : 0;
    for (auto& nc : e.nodes)
        nc.share = e.totalUs > 0 ? nc.latencyUs / e.totalUs : 0;
    return e;
}

} // namespace bpu
