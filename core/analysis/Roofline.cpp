// SPDX-License-Identifier: MIT
#include "Roofline.h"
#include "core/analysis/AnalysisTypes.h"
#include "core/model/Graph.h"

#include <array>
#include <iterator>

namespace bpu {

namespace {

/// Which rate applies to a node: the row of kRates bpuComputeRate() explains and bpuComputeUs() prices.
enum class RateKind { DenseConv, DepthwiseConv, Matmul, MatmulAct, Softmax, Transform, Vector };

RateKind rateKind(const NodeAnalysis& a, bool depthwise) {
    switch (a.opClass) {
    case OpClass::Conv:
        return depthwise ? RateKind::DepthwiseConv : RateKind::DenseConv;
    case OpClass::Matmul:
        // A MatMul with no weight multiplies two activations (attention): nothing to preload, the second
        // operand is laid out on chip per inference, at its own efficiency.
        return a.weightBytes == 0 ? RateKind::MatmulAct : RateKind::Matmul;
    case OpClass::Softmax:
        return RateKind::Softmax;
    case OpClass::Transform:
    case OpClass::Data:
        return RateKind::Transform;
    default:
        return RateKind::Vector;
    }
}

/// How one kind of work is priced and explained: bpuComputeUs() reads `work` and `perSecond`, the inspector's
/// bpuComputeRate() the rest. One row per RateKind, in its order, so a kind cannot be priced one way and
/// explained another.
struct RateRow {
    ComputeRate::Work work;
    const char* workName;
    const char* formula;                       ///< before the int16 factor and the closing bracket
    std::array<const char*, 3> params;         ///< the profile keys the rate reads (unused slots null)
    double (*perSecond)(const TargetProfile&); ///< work units per second at int8
};

double clockHz(const TargetProfile& t) {
    return t.bpuClockGhz.value * 1e9;
}

constexpr RateRow kRates[] = {
    {ComputeRate::Work::PaddedMacs,
     "padded MACs",
     "padded MACs / (peak_int8_tops / 2 x dense_conv_efficiency",
     {"peak_int8_tops", "dense_conv_efficiency"},
     [](const TargetProfile& t) {
         return t.peakMacsPerSecond() * t.denseConvEfficiency.value;
     }},
    {ComputeRate::Work::PaddedMacs,
     "padded MACs",
     "padded MACs / (peak_int8_tops / 2 x group_conv_efficiency",
     {"peak_int8_tops", "group_conv_efficiency"},
     [](const TargetProfile& t) {
         return t.peakMacsPerSecond() * t.groupConvEfficiency.value;
     }},
    {ComputeRate::Work::PaddedMacs,
     "padded MACs",
     "padded MACs / (peak_int8_tops / 2 x matmul_efficiency",
     {"peak_int8_tops", "matmul_efficiency"},
     [](const TargetProfile& t) {
         return t.peakMacsPerSecond() * t.matmulEfficiency.value;
     }},
    {ComputeRate::Work::PaddedMacs,
     "padded MACs",
     "padded MACs / (peak_int8_tops / 2 x matmul_act_efficiency",
     {"peak_int8_tops", "matmul_act_efficiency"},
     [](const TargetProfile& t) {
         return t.peakMacsPerSecond() * t.matmulActEfficiency.value;
     }},
    // Softmax is split into its vector passes (Sub, LUT, ReduceSum, ReduceMax, LUT, Mul) over the padded
    // tensor.
    {ComputeRate::Work::MovedElements,
     "padded elements",
     "padded elements x softmax_vector_passes / (vector_elements_per_cycle x bpu_clock_ghz",
     {"softmax_vector_passes", "vector_elements_per_cycle", "bpu_clock_ghz"},
     [](const TargetProfile& t) {
         return t.vectorElementsPerCycle.value * clockHz(t) / t.softmaxVectorPasses.value;
     }},
    {ComputeRate::Work::MovedElements,
     "padded output elements",
     "padded output elements / (transform_elements_per_cycle x bpu_clock_ghz",
     {"transform_elements_per_cycle", "bpu_clock_ghz"},
     [](const TargetProfile& t) {
         return t.transformElementsPerCycle.value * clockHz(t);
     }},
    {ComputeRate::Work::PaddedOps,
     "padded ops",
     "padded ops / (vector_elements_per_cycle x bpu_clock_ghz",
     {"vector_elements_per_cycle", "bpu_clock_ghz"},
     [](const TargetProfile& t) {
         return t.vectorElementsPerCycle.value * clockHz(t);
     }},
};
static_assert(std::size(kRates) == static_cast<size_t>(RateKind::Vector) + 1, "one row per RateKind");

const RateRow& rowOf(RateKind k) {
    return kRates[static_cast<size_t>(k)];
}

/// Work units per second for `k` on `t`, int16 slowed by the profile's factor.
double perSecond(RateKind k, bool int16, const TargetProfile& t) {
    return rowOf(k).perSecond(t) * (int16 ? t.int16ThroughputFactor.value : 1.0);
}

} // namespace

ComputeRate bpuComputeRate(const NodeAnalysis& a, bool depthwise, const TargetProfile& t) {
    const bool int16 = a.precision == Precision::Int16;
    const RateKind k = rateKind(a, depthwise);
    const RateRow& row = rowOf(k);
    ComputeRate r;
    r.work = row.work;
    r.perSecond = perSecond(k, int16, t);
    r.workName = row.workName;
    r.formula = row.formula;
    for (const char* p : row.params)
        if (p)
            r.params.push_back(p);
    if (int16) {
        r.formula += " x int16_throughput_factor";
        r.params.push_back("int16_throughput_factor");
    }
    r.formula += ")";
    return r;
}

bool isDepthwise(int64_t groups, int64_t inputChannels) {
    return groups > 1 && groups == inputChannels;
}

bool isDepthwiseConv(const Graph& g, const Node& n) {
    if (n.opType != "Conv" && n.opType != "ConvTranspose")
        return false;
    if (n.inputs.empty() || !n.inputs[0].valid())
        return false;
    const Tensor& in = g.tensor(n.inputs[0]);
    if (in.shape.rank() < 2)
        return false;
    return isDepthwise(n.attrIntOr("group", 1), in.shape.dims[1]);
}

double bpuComputeUs(const NodeAnalysis& a, bool depthwise, int64_t movedElements, const TargetProfile& t) {
    if (a.placement != Placement::BPU)
        return 0;
    const RateKind k = rateKind(a, depthwise);
    const ComputeRate::Work w = rowOf(k).work;
    const double work = w == ComputeRate::Work::PaddedMacs      ? double(a.paddedMacs)
                        : w == ComputeRate::Work::MovedElements ? double(movedElements)
                                                                : double(a.ops);
    return work / perSecond(k, a.precision == Precision::Int16, t) * 1e6;
}

double ddrUs(int64_t bytes, const TargetProfile& t) {
    return double(bytes) / t.effectiveDdrBytesPerSecond() * 1e6;
}

} // namespace bpu
