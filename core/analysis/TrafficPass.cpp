// SPDX-License-Identifier: MIT
// G6: what each node moves and whether compute or memory bounds it.
#include "Passes.h"
#include "Roofline.h"

#include <algorithm>

namespace bpu {

void runTraffic(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    r.ridgeIntensity = c.target.ridgeIntensity();
    for (const auto& n : g.nodes) {
        NodeAnalysis& a = r.nodes[n.id.value];
        const GroupId gid = a.fusionGroup;
        auto insideGroup = [&](const Tensor& t, bool asInput) {
            if (!gid.valid())
                return false;
            if (asInput)
                return t.producer.valid() && r.nodes[t.producer.value].fusionGroup == gid;
            if (t.isGraphOutput || t.consumers.empty())
                return false;
            for (NodeId cns : t.consumers)
                if (r.nodes[cns.value].fusionGroup != gid)
                    return false;
            return true;
        };
        a.inputBytes = a.outputBytes = a.weightBytes = a.ddrBytes = 0;
        // A weight's compile-time DequantizeLinear (QDQ models) moves nothing: its consumer loads the weight.
        if (a.placement == Placement::Folded && !n.outputs.empty() && weightSource(g, n.outputs[0]).valid())
            continue;
        int64_t moved = 0;
        for (TensorId in : n.inputs) {
            if (!in.valid())
                continue;
            const Tensor& t = g.tensor(in);
            const TensorAnalysis& ta = r.tensors[in.value];
            if (TensorId w = weightSource(g, in); w.valid()) {
                int64_t e = t.shape.elements().value_or(0);
                a.weightBytes += a.placement == Placement::CPU
                                     ? t.bytes().value_or(0)
                                     : e * bytesAtPrecision(a.precision, bytesPerElement(g.tensor(w).dtype));
                continue;
            }
            if (t.value || insideGroup(t, true))
                continue;
            a.inputBytes += ta.paddedBytes;
            // The input image sits in DDR in its own layout (the runtime pads only its stride), so the BPU
            // reads its real bytes; padding to the conv's C unit happens on chip.
            if (ta.spillsToDdr)
                a.ddrBytes += t.isGraphInput ? ta.bytes : ta.paddedBytes;
        }
        for (TensorId out : n.outputs) {
            if (!out.valid())
                continue;
            const Tensor& t = g.tensor(out);
            const TensorAnalysis& ta = r.tensors[out.value];
            moved += ta.padded.applies ? ta.padded.paddedElements : t.shape.elements().value_or(0);
            if (t.value || insideGroup(t, false))
                continue;
            a.outputBytes += ta.paddedBytes;
            if (ta.spillsToDdr)
                a.ddrBytes += ta.paddedBytes;
        }
        if (a.placement == Placement::BPU)
            a.ddrBytes += a.weightBytes;
        // Intensity per DDR byte: SRAM-resident feature maps cost no DDR traffic, so a conv whose
        // intensity is at or above the ridge is compute-bound by the same times the cost engine uses.
        a.intensity = double(a.paddedMacs) / double(std::max<int64_t>(a.ddrBytes, 1));
        a.computeUs = bpuComputeUs(a, convGroups(n) > 1, moved, c.target);
        // Inside a fused group the activation/BN/Add happen in the conv's output stage as it requantizes:
        // only the head's compute counts (the Add's residual read is still memory traffic).
        if (const FusedGroup* grp = r.group(gid); grp && grp->nodes.front() != n.id)
            a.computeUs = 0;
        // A fused group's folded members (its Relu writes the group's output) pay their DDR traffic too.
        const bool paysDdr =
            a.placement == Placement::BPU || (a.placement == Placement::Folded && gid.valid());
        a.memoryUs = paysDdr ? ddrUs(a.ddrBytes, c.target) : 0;
        a.assumedFree = c.options.assumeRemoved.count(n.name) > 0;
        if (a.assumedFree)
            a.computeUs = a.memoryUs = 0;
        if (a.placement != Placement::BPU || (a.computeUs == 0 && a.memoryUs == 0))
            a.bound = Bound::None;
        else
            a.bound = a.computeUs >= a.memoryUs ? Bound::Compute : Bound::Memory;
    }
}

} // namespace bpu
