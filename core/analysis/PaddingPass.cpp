// SPDX-License-Identifier: MIT
// G4: the BPU computes in aligned units and pads what does not fit. Conv-like NCHW tensors pad H to 8,
// W to 16 and C to 32 (G4.2); other tensors pad each dim to a power of two, capped at the profile's
// general unit (G4.1). Units come from the target profile.
#include "Passes.h"

#include <algorithm>

namespace bpu {

namespace {

int64_t roundUp(int64_t v, int64_t unit) { return unit <= 1 ? v : (v + unit - 1) / unit * unit; }

int64_t generalAlign(int64_t v, int64_t maxUnit) {
    if (v <= 0)
        return v;
    if (v >= maxUnit)
        return roundUp(v, maxUnit);
    int64_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

bool alignsConv(const TargetProfile& t, const Node& n) {
    const OpRule* r = t.rule(n.opType);
    return r && r->align == "conv";
}

} // namespace

void runPadding(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const auto& al = c.target.alignment;
    r.tensors.assign(g.tensors.size(), TensorAnalysis{});
    const int64_t unitH = static_cast<int64_t>(al.convH.value), unitW = static_cast<int64_t>(al.convW.value),
                  unitC = static_cast<int64_t>(al.convC.value),
                  unitG = static_cast<int64_t>(al.generalMaxUnit.value);

    // Which tensors are conv-like (G4.2): written by a conv-like op (a fused group writes in its head's
    // layout) or read by one on the BPU, and then every feature map that elementwise, LUT and data-movement
    // ops derive from them: an activation or an Add keeps the conv's NCHW layout, it does not re-pad by G4.1.
    std::vector<bool> convLike(g.tensors.size(), false);
    for (const auto& t : g.tensors) {
        if (t.producer.valid()) {
            const FusedGroup* grp = r.group(r.nodes[t.producer.value].fusionGroup);
            convLike[t.id.value] = alignsConv(c.target, g.node(grp ? grp->nodes.front() : t.producer));
        }
        for (NodeId cns : t.consumers)
            convLike[t.id.value] = convLike[t.id.value] || (alignsConv(c.target, g.node(cns)) &&
                                                            r.nodes[cns.value].placement == Placement::BPU);
    }
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        const NodeAnalysis& a = r.nodes[id.value];
        if (!onBpuGraph(a) || !(a.opClass == "elementwise" || a.opClass == "lut" || a.opClass == "data" ||
                                a.opClass == "folded" || a.opClass == "qdq"))
            continue;
        size_t rank = 0;
        for (TensorId in : n.inputs)
            if (in.valid() && convLike[in.value] && !g.tensor(in).value && !weightSource(g, in).valid())
                rank = g.tensor(in).shape.rank();
        if (rank == 3 || rank == 4)
            for (TensorId out : n.outputs)
                if (out.valid() && g.tensor(out).shape.rank() == rank)
                    convLike[out.value] = true;
    }

    int64_t wasteTotal = 0, paddedTotal = 0;
    for (const auto& t : g.tensors) {
        TensorAnalysis& ta = r.tensors[t.id.value];
        const int64_t dtypeBytes = bytesPerElement(t.dtype);
        bool onBpu = false, conv = convLike[t.id.value];
        Precision prec = c.options.defaultPrecision;
        if (t.producer.valid()) {
            const auto& pa = r.nodes[t.producer.value];
            onBpu |= onBpuGraph(pa); // a fused group's output is written by its folded Relu
            if (onBpuGraph(pa))
                prec = pa.precision;
        }
        for (NodeId cns : t.consumers)
            onBpu |= onBpuGraph(r.nodes[cns.value]);
        const int64_t elemBytes = onBpu ? bytesAtPrecision(prec, dtypeBytes) : std::max<int64_t>(dtypeBytes, 1);
        auto elements = t.shape.elements();
        ta.bytes = elements.value_or(0) * elemBytes;
        ta.paddedBytes = ta.bytes;
        // Weights (initializers, or dequantized ones in a QDQ model) are not feature maps.
        if (!onBpu || weightSource(g, t.id).valid() || t.value || !elements || !t.shape.fullyKnown())
            continue;

        PaddedShape& p = ta.padded;
        p.applies = true;
        p.dims = t.shape.dims;
        p.dimRules.assign(p.dims.size(), {});
        const size_t rank = p.dims.size();
        conv = conv && (rank == 4 || rank == 3);
        p.rule = conv ? "G4.2" : "G4.1";
        const bool aligned = c.options.assumeAligned.count(t.name) > 0; // what-if: reshaped to fit
        auto pad = [&](size_t i, int64_t unit, const char* dimName, bool general) {
            int64_t before = p.dims[i];
            int64_t after = aligned ? before : general ? generalAlign(before, unit) : roundUp(before, unit);
            if (after != before) {
                p.dimRules[i] = std::string(dimName) + " " + std::to_string(before) + "->" + std::to_string(after) +
                                (general ? " (pow2/x" + std::to_string(unit) + ", G4.1)"
                                         : " (x" + std::to_string(unit) + ", G4.2)");
                p.dims[i] = after;
            }
        };
        if (conv) {
            // NCHW (or NCW): batch untouched.
            pad(1, unitC, "C", false);
            if (rank == 4) {
                pad(2, unitH, "H", false);
                pad(3, unitW, "W", false);
            } else {
                pad(2, unitW, "W", false);
            }
        } else {
            static const char* names[] = {"d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"};
            for (size_t i = rank >= 2 ? 1 : 0; i < rank; ++i)
                pad(i, unitG, i < 8 ? names[i] : "d", true);
        }
        p.elements = *elements;
        p.paddedElements = checkedProduct(p.dims).value_or(p.elements);
        p.wasteBytes = (p.paddedElements - p.elements) * elemBytes;
        ta.paddedBytes = p.paddedElements * elemBytes;
        if (aliasRoot(g, r, t.id) == t.id) { // a Q/DQ annotation's output is the same buffer: count it once
            wasteTotal += p.wasteBytes;
            paddedTotal += ta.paddedBytes;
        }
    }
    r.summary.paddingWasteBytes = wasteTotal;
    r.summary.paddingWasteRatio = paddedTotal ? double(wasteTotal) / double(paddedTotal) : 0;

    // MACs on padded shapes: the TAE computes whole aligned units.
    for (const auto& n : g.nodes) {
        NodeAnalysis& a = r.nodes[n.id.value];
        const NodeMetrics& m = r.metrics[n.id.value];
        a.macs = m.macs;
        a.ops = m.ops;
        a.paddedMacs = m.macs;
        if (a.placement != Placement::BPU)
            continue;
        TensorId out = n.outputs.empty() ? TensorId{} : n.outputs[0];
        if (!out.valid())
            continue;
        const PaddedShape& po = r.tensors[out.value].padded;
        if (!po.applies)
            continue;
        // Vector work scales with the padding of the tensor it sweeps: the input for reductions/pools.
        const PaddedShape* swept = &po;
        if ((a.opClass == "pool" || a.opClass == "reduce") && !n.inputs.empty() && n.inputs[0].valid() &&
            r.tensors[n.inputs[0].value].padded.applies)
            swept = &r.tensors[n.inputs[0].value].padded;
        if (swept->elements > 0)
            a.ops =
                static_cast<int64_t>(double(m.ops) * double(swept->paddedElements) / double(swept->elements));
        if ((n.opType == "Conv" || n.opType == "ConvTranspose") && n.inputs.size() > 1 && n.inputs[1].valid()) {
            const TensorShape& w = g.tensor(n.inputs[1]).shape;
            const TensorShape& x = g.tensor(n.inputs[0]).shape;
            if (!w.fullyKnown() || !x.fullyKnown() || w.rank() < 3 || x.rank() < 3)
                continue;
            const int64_t groups = convGroups(n);
            int64_t kernel = 1;
            for (size_t i = 2; i < w.rank(); ++i)
                kernel *= w.dims[i];
            const int64_t cin = x.dims[1];
            const PaddedShape& pin = r.tensors[n.inputs[0].value].padded;
            const int64_t cinPadded = pin.applies && pin.dims.size() > 1 ? pin.dims[1] : roundUp(cin, unitC);
            // A dense conv reads every padded input channel; a grouped one reads its own cin/groups per
            // output channel (the channels padding adds form extra groups, already counted in the padded
            // output).
            const int64_t cinPerGroup = groups == 1 ? cinPadded : std::max<int64_t>(1, cin / groups);
            if (n.opType == "Conv") {
                a.paddedMacs = po.paddedElements * cinPerGroup * kernel;
            } else {
                const PaddedShape& pi = r.tensors[n.inputs[0].value].padded;
                const int64_t inElems = pi.applies ? pi.paddedElements : x.elements().value_or(0);
                const int64_t coutPerGroup = std::max<int64_t>(1, roundUp(w.dims[1] * groups, unitC) / groups);
                a.paddedMacs = inElems * coutPerGroup * kernel;
            }
            a.paddedMacs = std::max(a.paddedMacs, a.macs);
        } else if (a.macs > 0 && po.elements > 0) {
            // MatMul/Gemm: the output grows by its padding and K by the general rule.
            double outGrowth = double(po.paddedElements) / double(po.elements);
            int64_t k = 1;
            if (!n.inputs.empty() && n.inputs[0].valid() && g.tensor(n.inputs[0]).shape.rank() > 0) {
                const auto& xs = g.tensor(n.inputs[0]).shape;
                k = xs.dims.back() > 0 ? xs.dims.back() : 1;
                if (n.opType == "Gemm" && n.attrIntOr("transA", 0) && xs.rank() == 2)
                    k = xs.dims[0];
            }
            double kGrowth = double(generalAlign(k, unitG)) / double(k);
            a.paddedMacs = static_cast<int64_t>(double(a.macs) * outGrowth * kGrowth);
        }
    }
}

} // namespace bpu
