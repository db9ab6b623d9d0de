// SPDX-License-Identifier: MIT
// G6: what each node moves and whether compute or memory bounds it.
#include "NamedIds.h"
#include "Passes.h"
#include "Roofline.h"
#include "core/util/CheckedMath.h"

#include <algorithm>

namespace bpu {

bool keptInsideGroup(GroupId writer, bool graphOutput, std::span<const NodeId> consumers,
                     const std::vector<NodeAnalysis>& nodes) {
    if (!writer.valid() || graphOutput || consumers.empty())
        return false;
    for (NodeId cns : consumers)
        if (nodes[cns.value].fusionGroup != writer)
            return false;
    return true;
}

int64_t spilledTensorDdrBytes(const Graph& g, const AnalysisResult& r, TensorId t) {
    const Tensor& x = g.tensor(t);
    const TensorAnalysis& ta = r.tensors[t.value];
    if (!ta.spillsToDdr)
        return 0;
    const GroupId writer = x.producer.valid() ? r.nodes[x.producer.value].fusionGroup : GroupId{};
    int64_t bytes = 0;
    if (x.producer.valid() && !keptInsideGroup(writer, x.isGraphOutput, x.consumers, r.nodes))
        bytes = satAdd(bytes, ta.paddedBytes);
    // Per input slot, as runTraffic walks a node's inputs (Mul(x, x) loads x twice); a node listed twice as
    // a consumer is counted once.
    std::vector<NodeId> readers(x.consumers.begin(), x.consumers.end());
    std::sort(readers.begin(), readers.end());
    readers.erase(std::unique(readers.begin(), readers.end()), readers.end());
    for (NodeId cns : readers) {
        if (readInsideGroup(writer, r.nodes[cns.value].fusionGroup))
            continue;
        for (TensorId in : g.node(cns).inputs)
            if (in == t)
                bytes = satAdd(bytes, ddrLoadBytes(ta, x.isGraphInput));
    }
    return bytes;
}

void runTraffic(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const AnalysisIndex& ix = *c.ix;
    const OpTable& ops = ix.ops();
    r.ridgeIntensity = c.target.ridgeIntensity();
    const std::vector<uint8_t> removed = nodesNamed(g, c.options.assumeRemoved);
    for (size_t i = 0; i < r.nodes.size(); ++i) {
        const NodeId id{static_cast<uint32_t>(i)};
        NodeAnalysis& a = r.nodes[i];
        const GroupId gid = a.fusionGroup;
        auto writerGroup = [&](TensorId t) {
            const NodeId p = ops.producer[t.value];
            return p.valid() ? r.nodes[p.value].fusionGroup : GroupId{};
        };
        a.inputBytes = a.outputBytes = a.weightBytes = a.ddrBytes = a.ddrStoreBytes = 0;
        const auto outputs = ops.outputs(id);
        // A weight's compile-time DequantizeLinear (QDQ models) moves nothing: its consumer loads the weight.
        if (a.placement == Placement::Folded && !outputs.empty() && outputs[0].valid() &&
            ops.weight[outputs[0].value].valid())
            continue;
        int64_t moved = 0;
        for (TensorId in : ops.inputs(id)) {
            if (!in.valid())
                continue;
            const TensorAnalysis& ta = r.tensors[in.value];
            if (TensorId w = ops.weight[in.value]; w.valid()) {
                const int64_t e = ix.count(in);
                a.weightBytes = satAdd(
                    a.weightBytes, a.placement == Placement::CPU
                                       ? g.tensor(in).bytes().value_or(0)
                                       : satMul(e, bytesAtPrecision(a.precision, ix.dtypeBytes[w.value])));
                continue;
            }
            if (ix.hasValue[in.value] || readInsideGroup(writerGroup(in), gid))
                continue;
            a.inputBytes = satAdd(a.inputBytes, ta.paddedBytes);
            if (ta.spillsToDdr)
                a.ddrBytes = satAdd(a.ddrBytes, ddrLoadBytes(ta, ops.graphInput(in)));
        }
        for (TensorId out : outputs) {
            if (!out.valid())
                continue;
            const TensorAnalysis& ta = r.tensors[out.value];
            moved = satAdd(moved, ta.padded.applies ? ta.padded.paddedElements : ix.count(out));
            if (ix.hasValue[out.value] ||
                keptInsideGroup(gid, ops.graphOutput(out), ops.consumers(out), r.nodes))
                continue;
            a.outputBytes = satAdd(a.outputBytes, ta.paddedBytes);
            if (ta.spillsToDdr) {
                a.ddrBytes = satAdd(a.ddrBytes, ta.paddedBytes);
                a.ddrStoreBytes = satAdd(a.ddrStoreBytes, ta.paddedBytes);
            }
        }
        if (a.placement == Placement::BPU)
            a.ddrBytes = satAdd(a.ddrBytes, a.weightBytes);
        // Intensity per DDR byte: SRAM-resident feature maps cost no DDR traffic, so a conv whose
        // intensity is at or above the ridge is compute-bound by the same times the cost engine uses.
        a.intensity = double(a.paddedMacs) / double(std::max<int64_t>(a.ddrBytes, 1));
        const bool depthwise = ix.conv[i].known && isDepthwise(ix.groups[i], ix.conv[i].inputChannels);
        a.computeUs = bpuComputeUs(a, depthwise, moved, c.target);
        // Inside a fused group the activation/BN/Add happen in the conv's output stage as it requantizes:
        // only the head's compute counts (the Add's residual read is still memory traffic).
        if (const FusedGroup* grp = r.group(gid); grp && grp->nodes.front() != id)
            a.computeUs = 0;
        // A fused group's folded members (its Relu writes the group's output) pay their DDR traffic too.
        const bool paysDdr =
            a.placement == Placement::BPU || (a.placement == Placement::Folded && gid.valid());
        a.memoryUs = paysDdr ? ddrUs(a.ddrBytes, c.target) : 0;
        a.assumedFree = named(removed, id.value);
        if (a.assumedFree)
            a.computeUs = a.memoryUs = 0;
        if (a.placement != Placement::BPU || (a.computeUs == 0 && a.memoryUs == 0))
            a.bound = Bound::None;
        else
            a.bound = a.computeUs >= a.memoryUs ? Bound::Compute : Bound::Memory;
    }
    // Issue 63: a fused group is one BPU layer, costed as one (CostModel: its members' compute and DDR
    // pipelined together on the head). Its bound is the larger of what the layer computes and what it moves
    // through DDR, the members' spills included (resnet50's layer1.1 conv3 computes 31.66 us while its Add
    // and Relu move 156.68 us each), and every member shows it; the head's intensity is the layer's MACs per
    // DDR byte of the whole layer, as the roofline plots it against the layer's time.
    for (const FusedGroup& grp : r.groups) {
        if (grp.nodes.empty())
            continue;
        double compute = 0, memory = 0;
        int64_t ddr = 0;
        for (NodeId m : grp.nodes) {
            compute += r.nodes[m.value].computeUs;
            memory += r.nodes[m.value].memoryUs;
            ddr = satAdd(ddr, r.nodes[m.value].ddrBytes);
        }
        NodeAnalysis& head = r.nodes[grp.nodes.front().value];
        if (head.placement != Placement::BPU)
            continue;
        head.intensity = double(head.paddedMacs) / double(std::max<int64_t>(ddr, 1));
        const Bound b = compute == 0 && memory == 0 ? Bound::None
                        : compute >= memory         ? Bound::Compute
                                                    : Bound::Memory;
        for (NodeId m : grp.nodes)
            r.nodes[m.value].bound = b;
    }
}

} // namespace bpu
