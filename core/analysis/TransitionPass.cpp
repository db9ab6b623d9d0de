// SPDX-License-Identifier: MIT
// G1.2: CPU<->BPU switches. The runtime runs a BPU segment as one task: the CPU submits it once, whatever
// number of tensors it hands over, and waits for it once. So a switch is a segment transition - entering a
// segment from CPU work, or leaving it for CPU work - not a tensor crossing (a detector's NMS tail reads
// dozens of the heads' tensors after one switch). The quantize at a model input and the dequantize at a
// model output are the runtime's own input/output handling (as for a one-segment float model), not switches.
#include "Passes.h"

namespace bpu {

void runTransitions(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const AnalysisIndex& ix = *c.ix;
    const OpTable& ops = ix.ops();
    const auto& pos = g.topoIndex();

    // CPU work that counts: every CPU node but an explicit Q/DQ at the model's own inputs/outputs.
    auto modelIo = [&](NodeId n) {
        const OpKind k = ops.kind[n.value];
        if (k != OpKind::Quantize && k != OpKind::Dequantize)
            return false;
        for (TensorId in : ops.inputs(n))
            if (in.valid() && ops.graphInput(in))
                return true;
        for (TensorId out : ops.outputs(n))
            if (out.valid() && ops.graphOutput(out))
                return true;
        // ... or through a fake-quant's members (Q -> Clip -> DQ -> output).
        for (TensorId out : ops.outputs(n))
            if (out.valid())
                for (NodeId cns : ops.consumers(out))
                    if (ix.qdqMember[cns.value])
                        for (TensorId o2 : ops.outputs(cns))
                            for (NodeId dq : o2.valid() ? ops.consumers(o2) : std::span<const NodeId>{})
                                for (TensorId o3 : ops.outputs(dq))
                                    if (o3.valid() && ops.graphOutput(o3))
                                        return true;
        return false;
    };
    auto cpuWork = [&](NodeId n) {
        return ix.placement[n.value] == Placement::CPU && !modelIo(n);
    };
    const int segments = r.summary.bpuSegments;
    std::vector<NodeId> entry(static_cast<size_t>(segments)), exit(static_cast<size_t>(segments));
    auto earlier = [&](NodeId a, NodeId b) {
        return !b.valid() || pos[a.value] < pos[b.value];
    };
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const NodeId p = ops.producer[i];
        if (!p.valid() || ix.hasValue[i])
            continue;
        const TensorId t{static_cast<uint32_t>(i)};
        const int fromSeg = ix.onBpu[p.value] ? r.nodes[p.value].segment : -1;
        const bool fromCpu = cpuWork(p);
        if (fromSeg < 0 && !fromCpu)
            continue;
        for (NodeId cns : ops.consumers(t)) {
            if (fromCpu) {
                const int seg = ix.onBpu[cns.value] ? r.nodes[cns.value].segment : -1;
                if (seg >= 0 && earlier(cns, entry[static_cast<size_t>(seg)]))
                    entry[static_cast<size_t>(seg)] = cns;
            } else if (cpuWork(cns) && earlier(cns, exit[static_cast<size_t>(fromSeg)])) {
                exit[static_cast<size_t>(fromSeg)] = cns;
            }
        }
    }
    for (int s = 0; s < segments; ++s) {
        if (entry[static_cast<size_t>(s)].valid())
            r.transitions.push_back({s, true, entry[static_cast<size_t>(s)]});
        if (exit[static_cast<size_t>(s)].valid())
            r.transitions.push_back({s, false, exit[static_cast<size_t>(s)]});
    }
    r.summary.cpuBpuTransitions = static_cast<int>(r.transitions.size());
}

} // namespace bpu
