// SPDX-License-Identifier: MIT
// G4: the BPU computes in aligned units and pads what does not fit. Conv-like NCHW tensors pad H to 8,
// W to 16 and C to 32 (G4.2); other tensors pad each dim to a power of two, capped at the profile's
// general unit (G4.1). Units come from the target profile.
#include "Alignment.h"
#include "InputNormalization.h"
#include "NamedIds.h"
#include "Passes.h"
#include "core/util/CheckedMath.h"

#include <algorithm>

namespace bpu {

namespace {

int64_t roundUp(int64_t v, int64_t unit) {
    if (unit <= 1)
        return v;
    if (v > kCountMax - unit)
        return kCountMax; // a saturated count stays saturated
    return (v + unit - 1) / unit * unit;
}

/// The padded shape back to "does not apply", keeping the storage of its dims.
void clearPadded(PaddedShape& p) {
    p.applies = false;
    p.rule = PadRule::None;
    p.dims.clear();
    p.elements = p.paddedElements = p.wasteBytes = 0;
}

} // namespace

void runPadding(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    AnalysisIndex& ix = *c.ix;
    const OpTable& ops = ix.ops();
    const auto& al = c.target.alignment;
    r.tensors.resize(g.tensors.size());
    const int64_t unitC = static_cast<int64_t>(al.convC.value),
                  unitG = static_cast<int64_t>(al.generalMaxUnit.value);
    const int64_t inputCMax = static_cast<int64_t>(al.inputCMax.value);

    // Which tensors are conv-like (G4.2): written by a conv-like op (a fused group writes in its head's
    // layout) or read by one on the BPU, and then every feature map that elementwise, LUT and data-movement
    // ops derive from them: an activation or an Add keeps the conv's NCHW layout, it does not re-pad by G4.1.
    std::vector<uint8_t> convLike(g.tensors.size(), 0);
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorId t{static_cast<uint32_t>(i)};
        bool conv = false;
        if (const NodeId p = ops.producer[i]; p.valid()) {
            const FusedGroup* grp = r.group(r.nodes[p.value].fusionGroup);
            conv = ops.alignsConv[(grp ? grp->nodes.front() : p).value];
        }
        for (NodeId cns : ops.consumers(t))
            conv = conv || (ops.alignsConv[cns.value] && ix.placement[cns.value] == Placement::BPU);
        convLike[i] = conv;
    }
    for (NodeId id : g.topoOrder) {
        if (!ix.onBpu[id.value])
            continue;
        // The row's class, or "elementwise" where fusion made a BN/Relu of an unfused group a layer.
        if (!ops.keepsLayout[id.value] && r.nodes[id.value].opClass != OpClass::Elementwise)
            continue;
        size_t rank = 0;
        for (TensorId in : ops.inputs(id))
            if (in.valid() && convLike[in.value] && !ix.hasValue[in.value] && !ops.weight[in.value].valid())
                rank = ix.rank[in.value];
        if (rank == 3 || rank == 4)
            for (TensorId out : ops.outputs(id))
                if (out.valid() && ix.rank[out.value] == rank)
                    convLike[out.value] = true;
    }

    // The image after in-graph preprocessing (normalisation, resize, batching: InputNormalization.h).
    const std::vector<uint8_t> imageLike = InputNormalization::imageTensors(g, inputCMax);

    // What-if: tensors the user reshaped to fit (AnalysisOptions::assumeAligned).
    const std::vector<uint8_t> alignedByUser = tensorsNamed(g, c.options.assumeAligned);
    // A re-analysis after an edit keeps the padding of every tensor whose shape the edit did not re-derive
    // and whose key (below) is unchanged: an edit at 100k nodes touches a handful of tensors, and this pass
    // was the largest share of its re-estimate.
    std::vector<uint8_t> reshaped;
    if (c.dirty) {
        reshaped.assign(g.tensors.size(), 0);
        for (NodeId id : *c.dirty) {
            for (TensorId t : ops.inputs(id))
                if (t.valid())
                    reshaped[t.value] = 1;
            for (TensorId t : ops.outputs(id))
                if (t.valid())
                    reshaped[t.value] = 1;
        }
    }
    int64_t wasteTotal = 0, paddedTotal = 0;
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const TensorId id{static_cast<uint32_t>(i)};
        TensorAnalysis& ta = r.tensors[i];
        ta.liveSteps = 0;
        ta.spillsToDdr = false;
        PaddedShape& p = ta.padded;
        bool onBpu = false, conv = convLike[i];
        Precision prec = c.options.defaultPrecision;
        if (const NodeId producer = ops.producer[i]; producer.valid() && ix.onBpu[producer.value]) {
            onBpu = true; // a fused group's output is written by its folded Relu
            prec = r.nodes[producer.value].precision;
        }
        if (!onBpu)
            for (NodeId cns : ops.consumers(id))
                onBpu |= ix.onBpu[cns.value] != 0;
        const bool image = (ops.graphInput(id) || imageLike[i]) && ix.rank[i] == 4;
        const bool aligned = named(alignedByUser, id.value);
        // Everything below reads besides the shape and the index's per-tensor facts (which change only with
        // the shape): 1 + 7 bits.
        const uint8_t key = static_cast<uint8_t>(0x80 | onBpu | conv << 1 | static_cast<int>(prec) << 2 |
                                                 image << 4 | aligned << 5);
        if (c.dirty && ta.paddingKey == key && !reshaped[i]) {
            if (p.applies && ix.alias[i] == id) {
                wasteTotal = satAdd(wasteTotal, p.wasteBytes);
                paddedTotal = satAdd(paddedTotal, ta.paddedBytes);
            }
            continue;
        }
        ta.paddingKey = key;
        clearPadded(p);
        const int64_t dtypeBytes = ix.dtypeBytes[i];
        const int64_t elemBytes =
            onBpu ? bytesAtPrecision(prec, dtypeBytes) : std::max<int64_t>(dtypeBytes, 1);
        const int64_t elements = ix.elements[i];
        ta.bytes = satMul(std::max<int64_t>(elements, 0), elemBytes);
        ta.paddedBytes = ta.bytes;
        // Weights (initializers, or dequantized ones in a QDQ model) are not feature maps.
        if (!onBpu || ops.weight[i].valid() || ix.hasValue[i] || elements < 0 || !ix.fullyKnown[i])
            continue;

        const Tensor& t = g.tensors[i];
        p.applies = true;
        p.dims = t.shape.dims;
        const size_t rank = p.dims.size();
        conv = conv && (rank == 4 || rank == 3);
        // An image input (rank 4, at most input_c_max channels) is laid out by the runtime, not by the conv
        // that reads it: C stays as it is, H and W align to the input units. So is the image after in-graph
        // preprocessing (Sub mean / Div std, resize, batching): it is still the input, in that layout.
        const bool imageLayout = image && p.dims[1] <= inputCMax;
        p.rule = imageLayout ? PadRule::Input : conv ? PadRule::ConvLike : PadRule::General;
        // Each dim by the rule's unit (Alignment.h: the what-if editor steps by the same units; dimPadRule
        // says it in words).
        if (!aligned)
            for (size_t d = 0; d < rank; ++d)
                p.dims[d] = dimAlignment(p.rule, rank, d, al).align(p.dims[d]);
        p.elements = elements;
        int64_t padded = 1;
        bool overflow = false;
        for (int64_t d : p.dims)
            overflow |= __builtin_mul_overflow(padded, d, &padded);
        p.paddedElements = overflow ? p.elements : padded; // checkedProduct(p.dims).value_or(p.elements)
        p.wasteBytes = satMul(p.paddedElements - p.elements, elemBytes);
        ta.paddedBytes = satMul(p.paddedElements, elemBytes);
        if (ix.alias[i] == id) { // a Q/DQ annotation's output is the same buffer: count it once
            wasteTotal = satAdd(wasteTotal, p.wasteBytes);
            paddedTotal = satAdd(paddedTotal, ta.paddedBytes);
        }
    }
    r.summary.paddingWasteBytes = wasteTotal;
    r.summary.paddingWasteRatio = paddedTotal ? double(wasteTotal) / double(paddedTotal) : 0;

    // MACs on padded shapes: the TAE computes whole aligned units.
    for (size_t i = 0; i < r.nodes.size(); ++i) {
        NodeAnalysis& a = r.nodes[i];
        const NodeMetrics& m = r.metrics[i];
        a.macs = m.macs;
        a.ops = m.ops;
        a.paddedMacs = m.macs;
        if (a.placement != Placement::BPU)
            continue;
        const NodeId nid{static_cast<uint32_t>(i)};
        const auto outs = ops.outputs(nid);
        TensorId out = outs.empty() ? TensorId{} : outs[0];
        if (!out.valid())
            continue;
        const PaddedShape& po = r.tensors[out.value].padded;
        if (!po.applies)
            continue;
        const auto inputs = ops.inputs(nid);
        // Vector work scales with the padding of the tensor it sweeps: the input for reductions/pools.
        const PaddedShape* swept = &po;
        if ((a.opClass == OpClass::Pool || a.opClass == OpClass::Reduce) && !inputs.empty() &&
            inputs[0].valid() && r.tensors[inputs[0].value].padded.applies)
            swept = &r.tensors[inputs[0].value].padded;
        if (swept->elements > 0)
            a.ops = clampToInt64(double(m.ops) * double(swept->paddedElements) / double(swept->elements));
        const OpKind kind = ops.kind[i];
        if ((kind == OpKind::Conv || kind == OpKind::ConvTranspose) && inputs.size() > 1 &&
            inputs[1].valid()) {
            const AnalysisIndex::ConvShape& cs = ix.conv[i];
            if (!cs.known)
                continue;
            const int64_t groups = ix.groups[i];
            const int64_t kernel = cs.taps;
            const int64_t cin = cs.inputChannels;
            const PaddedShape& pin = r.tensors[inputs[0].value].padded;
            const int64_t cinPadded = pin.applies && pin.dims.size() > 1 ? pin.dims[1] : roundUp(cin, unitC);
            // A dense conv reads every padded input channel; a grouped one reads its own cin/groups per
            // output channel (the channels padding adds form extra groups, already counted in the padded
            // output).
            const int64_t cinPerGroup = groups == 1 ? cinPadded : std::max<int64_t>(1, cin / groups);
            if (kind == OpKind::Conv && groups == 1 && pin.applies && pin.rule == PadRule::Input) {
                // An image input keeps its few channels in memory: the conv reading it packs them with the
                // kernel taps into one reduction aligned to the C unit (3 x 3 x 3 = 27 -> 32), not C -> 32
                // repeated per tap (docs/analysis.md, section 3).
                a.paddedMacs = satMul(po.paddedElements, roundUp(satMul(cin, kernel), unitC));
            } else if (kind == OpKind::Conv) {
                a.paddedMacs = satMul(satMul(po.paddedElements, cinPerGroup), kernel);
            } else {
                const PaddedShape& pi = r.tensors[inputs[0].value].padded;
                const int64_t inElems = pi.applies ? pi.paddedElements : ix.count(inputs[0]);
                const int64_t coutPerGroup =
                    std::max<int64_t>(1, roundUp(satMul(cs.weightDim1, groups), unitC) / groups);
                a.paddedMacs = satMul(satMul(inElems, coutPerGroup), kernel);
            }
            a.paddedMacs = std::max(a.paddedMacs, a.macs);
        } else if (a.macs > 0 && po.elements > 0) {
            // MatMul/Gemm: the output grows by its padding and K by the general rule.
            double outGrowth = double(po.paddedElements) / double(po.elements);
            const int64_t k = m.contraction;
            const DimAlignment general{unitG, "", true, ""};
            double kGrowth = double(general.align(k)) / double(k);
            a.paddedMacs = clampToInt64(double(a.macs) * outGrowth * kGrowth);
        }
    }
}

} // namespace bpu
