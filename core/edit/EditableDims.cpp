// SPDX-License-Identifier: MIT
#include "EditableDims.h"

#include "ReexportEdit.h"
#include "Session.h"
#include "ShapeEdits.h"
#include "core/analysis/Alignment.h"
#include "core/analysis/AnalysisResult.h"
#include "core/model/BakedSizes.h"

#include <algorithm>

namespace bpu {

namespace {

/// The dim's alignment as the padding pass applied it to `tensor` (its rule), or none off the BPU.
void setAlignment(EditableDim& d, const Graph& g, const AnalysisResult& r, const TargetProfile& t) {
    const PaddedShape& p = r.tensors[d.tensor.value].padded;
    const size_t rank = g.tensor(d.tensor).shape.rank();
    const DimAlignment a = p.applies ? dimAlignment(p.rule, rank, d.axis, t.alignment) : DimAlignment{};
    d.unit = std::max<int64_t>(1, a.unit);
    d.unitParam = a.unit > 1 ? a.param : "";
    d.powerOfTwo = a.powerOfTwo && a.unit > 1;
}

/// A range a drag can explore: down to a quarter, up to double (at least four alignment units), in steps.
void setRange(EditableDim& d) {
    const int64_t v = std::max<int64_t>(d.current, 1);
    d.lo = std::max(d.step, v / 4 / d.step * d.step);
    d.hi = std::max(v * 2, v + 4 * d.unit);
    d.hi = d.hi / d.step * d.step;
}

} // namespace

EditPtr EditableDim::at(int64_t value) const {
    if (kind == DimKind::OutputChannels)
        return std::make_shared<SetChannelsEdit>(target, value);
    std::vector<int64_t> dims = shape;
    dims[axis] = value;
    if (reexport)
        return std::make_shared<ReexportEdit>(target, std::move(dims));
    return std::make_shared<SetInputShapeEdit>(target, std::move(dims));
}

int64_t EditableDim::padded(int64_t value) const {
    return DimAlignment{unit, "", powerOfTwo, ""}.align(value);
}

std::string EditableDim::label() const {
    switch (kind) {
    case DimKind::OutputChannels:
        return "Output channels";
    case DimKind::InputHeight:
        return "Input H";
    case DimKind::InputWidth:
        return "Input W";
    }
    return {};
}

std::vector<EditableDim> editableDims(const Session& s, NodeId node) {
    return editableDims(s.graph(), s.analysis(), s.target(), node);
}

std::vector<EditableDim> editableDims(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                                      NodeId node) {
    std::vector<EditableDim> out;
    if (node.valid() && node.value < g.nodes.size()) {
        const Node& n = g.node(node);
        const bool hasWeight =
            n.inputs.size() > 1 && n.inputs[1].valid() && g.tensor(n.inputs[1]).isInitializer &&
            g.tensor(n.inputs[1]).shape.fullyKnown() && g.tensor(n.inputs[1]).shape.rank() >= 3;
        const int64_t group = std::max<int64_t>(1, n.attrIntOr("group", 1));
        const bool depthwise = hasWeight && group > 1 && g.tensor(n.inputs[1]).shape.dims[1] == 1;
        if (n.opType == "Conv" && hasWeight && !depthwise && !n.outputs.empty() && n.outputs[0].valid() &&
            g.tensor(n.outputs[0]).shape.rank() >= 2) {
            EditableDim d;
            d.kind = DimKind::OutputChannels;
            d.target = n.name;
            d.tensor = n.outputs[0];
            d.axis = 1;
            d.current = g.tensor(n.inputs[1]).shape.dims[0];
            d.step = group;
            setAlignment(d, g, r, t);
            setRange(d);
            out.push_back(std::move(d));
        }
    }
    for (TensorId in : g.inputs) {
        const Tensor& input = g.tensor(in);
        if (input.shape.rank() != 4 || !input.shape.fullyKnown())
            continue;
        // Sizes the export fixed, read at this input's size as ReexportEdit reads them (NCHW: H, W at 2, 3);
        // only when every one is held by one constant can a re-export be estimated.
        const std::vector<BakedSize> baked =
            bakedSizes(g, TracedInput{input.shape.dims[2], input.shape.dims[3]});
        const bool reexport = !baked.empty() && std::all_of(baked.begin(), baked.end(),
                                                            [](const BakedSize& b) { return b.rewritable; });
        for (size_t axis : {size_t(2), size_t(3)}) {
            EditableDim d;
            d.kind = axis == 2 ? DimKind::InputHeight : DimKind::InputWidth;
            d.target = input.name;
            d.tensor = in;
            d.axis = axis;
            d.current = input.shape.dims[axis];
            d.shape = input.shape.dims;
            if (reexport) {
                d.reexport = true;
                d.bakedExample = bakedSizeText(g, baked.front());
                d.bakedCount = baked.size();
            }
            setAlignment(d, g, r, t);
            setRange(d);
            out.push_back(std::move(d));
        }
    }
    return out;
}

} // namespace bpu
