// SPDX-License-Identifier: MIT
#include "CostModel.h"

#include <algorithm>
#include <span>

namespace bpu {

namespace {

double pipelined(double compute, double memory, double overlap) {
    return std::max(compute, memory) + (1.0 - overlap) * std::min(compute, memory);
}

} // namespace

CostEstimate CostModel::estimate(const Graph& g, const AnalysisResult& r, const TargetProfile& t) {
    CostEstimate e;
    e.nodes.assign(g.nodes.size(), NodeCost{});
    e.batch = 1;
    for (TensorId in : g.inputs)
        if (g.tensor(in).shape.rank() == 4 && g.tensor(in).shape.dims[0] > 0) // NCHW images carry the batch
            e.batch = static_cast<int>(std::max<int64_t>(e.batch, g.tensor(in).shape.dims[0]));

    const double overlap = t.loadComputeOverlap.value;
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
        const double layer = pipelined(c, m, overlap) + layerFixed;
        // Attribute the layer to its members by their share of its raw work (the head takes the fixed cost),
        // folded members included: a fused group's Relu that writes its output to DDR has memory time of its
        // own, and the members' latencies add up to the layer's.
        const double work = c + m;
        for (NodeId mem : members) {
            const NodeAnalysis& ma = r.nodes[mem.value];
            NodeCost& nc = e.nodes[mem.value];
            const double part = work > 0 ? (ma.computeUs + ma.memoryUs) / work : (mem == id ? 1.0 : 0.0);
            nc.computeUs = ma.computeUs;
            nc.fixedUs = mem == members.front() ? layerFixed : 0;
            nc.latencyUs = (layer - layerFixed) * part + nc.fixedUs;
            nc.memoryUs = std::max(0.0, nc.latencyUs - nc.fixedUs - nc.computeUs);
        }
        e.bpuUs += layer;
    }

    // CPU nodes.
    const double cpuFlops = t.cpuGflops.value * 1e9, cpuBw = t.cpuBandwidthGBs.value * 1e9;
    for (size_t i = 0; i < r.nodes.size(); ++i) {
        const NodeAnalysis& a = r.nodes[i];
        if (a.placement != Placement::CPU || a.assumedFree || g.nodes[i].opType == "QuantizeLinear" ||
            g.nodes[i].opType == "DequantizeLinear")
            continue;
        const NodeMetrics& m = r.metrics[i];
        NodeCost& nc = e.nodes[i];
        nc.computeUs = (2.0 * double(m.macs) + double(m.ops)) / cpuFlops * 1e6;
        nc.memoryUs = double(m.inputBytes + m.outputBytes + m.weightBytes) / cpuBw * 1e6;
        nc.latencyUs = nc.computeUs + nc.memoryUs;
        e.cpuUs += nc.latencyUs;
    }

    // Quantize/dequantize passes, charged to the explicit node or to the node next to the boundary.
    for (const auto& p : r.qdq) {
        const double us = double(p.elements) / t.qdqElementsPerUs.value;
        e.qdqUs += us;
        const Tensor& tensor = g.tensor(p.tensor);
        NodeId owner = p.node.valid()                                      ? p.node
                       : p.kind == "dequantize" && tensor.producer.valid() ? tensor.producer
                       : !tensor.consumers.empty()                         ? tensor.consumers.front()
                                                                           : tensor.producer;
        if (owner.valid()) {
            e.nodes[owner.value].qdqUs += us;
            e.nodes[owner.value].latencyUs += us;
        }
    }

    // CPU<->BPU switches: each segment transition (entering a BPU segment from CPU work, or leaving it for
    // CPU work - the transition pass finds them; a segment is submitted once however many tensors it is
    // handed), charged to the node that waits for it.
    for (const auto& x : r.transitions) {
        NodeCost& nc = e.nodes[x.receiver.value];
        nc.switchUs += t.cpuBpuSwitchUs.value;
        nc.latencyUs += t.cpuBpuSwitchUs.value;
        e.switchUs += t.cpuBpuSwitchUs.value;
    }
    e.fixedUs = t.modelFixedUs.value;
    e.totalUs = e.bpuUs + e.cpuUs + e.qdqUs + e.switchUs + e.fixedUs;
    e.latencyMs = e.totalUs / 1000.0;
    e.perImageMs = e.latencyMs / e.batch;
    e.fps = e.totalUs > 0 ? e.batch * 1e6 / e.totalUs : 0;
    for (auto& nc : e.nodes)
        nc.share = e.totalUs > 0 ? nc.latencyUs / e.totalUs : 0;
    return e;
}

} // namespace bpu
