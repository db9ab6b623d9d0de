// SPDX-License-Identifier: MIT
#include "Roofline.h"

namespace bpu {

namespace {

/// Which rate applies to a node: the switch bpuComputeRate() explains and bpuComputeUs() prices. Kept apart
/// from the explanation because the traffic pass prices every node on every re-analysis (no strings there).
enum class RateKind { DenseConv, GroupConv, Matmul, MatmulAct, Softmax, Transform, Vector };

RateKind rateKind(const NodeAnalysis& a, bool grouped) {
    switch (a.opClass) {
    case OpClass::Conv:
        return grouped ? RateKind::GroupConv : RateKind::DenseConv;
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

ComputeRate::Work workOf(RateKind k) {
    switch (k) {
    case RateKind::DenseConv:
    case RateKind::GroupConv:
    case RateKind::Matmul:
    case RateKind::MatmulAct:
        return ComputeRate::Work::PaddedMacs;
    case RateKind::Softmax:
    case RateKind::Transform:
        return ComputeRate::Work::MovedElements;
    case RateKind::Vector:
        break;
    }
    return ComputeRate::Work::PaddedOps;
}

/// Work units per second for `k` on `t`.
double perSecond(RateKind k, bool int16, const TargetProfile& t) {
    const double precision = int16 ? t.int16ThroughputFactor.value : 1.0;
    const double clockHz = t.bpuClockGhz.value * 1e9;
    switch (k) {
    case RateKind::DenseConv:
        return t.peakMacsPerSecond() * t.denseConvEfficiency.value * precision;
    case RateKind::GroupConv:
        return t.peakMacsPerSecond() * t.groupConvEfficiency.value * precision;
    case RateKind::Matmul:
        return t.peakMacsPerSecond() * t.matmulEfficiency.value * precision;
    case RateKind::MatmulAct:
        return t.peakMacsPerSecond() * t.matmulActEfficiency.value * precision;
    case RateKind::Softmax:
        // Split into its vector passes (Sub, LUT, ReduceSum, ReduceMax, LUT, Mul) over the padded tensor.
        return t.vectorElementsPerCycle.value * clockHz * precision / t.softmaxVectorPasses.value;
    case RateKind::Transform:
        return t.transformElementsPerCycle.value * clockHz * precision;
    case RateKind::Vector:
        break;
    }
    return t.vectorElementsPerCycle.value * clockHz * precision;
}

} // namespace

ComputeRate bpuComputeRate(const NodeAnalysis& a, bool grouped, const TargetProfile& t) {
    const bool int16 = a.precision == Precision::Int16;
    const RateKind k = rateKind(a, grouped);
    ComputeRate r;
    r.work = workOf(k);
    r.perSecond = perSecond(k, int16, t);
    switch (k) {
    case RateKind::DenseConv:
    case RateKind::GroupConv:
    case RateKind::Matmul:
    case RateKind::MatmulAct: {
        const char* eff = k == RateKind::MatmulAct   ? "matmul_act_efficiency"
                          : k == RateKind::Matmul    ? "matmul_efficiency"
                          : k == RateKind::GroupConv ? "group_conv_efficiency"
                                                     : "dense_conv_efficiency";
        r.workName = "padded MACs";
        r.formula = std::string("padded MACs / (peak_int8_tops / 2 x ") + eff;
        r.params = {"peak_int8_tops", eff};
        break;
    }
    case RateKind::Softmax:
        r.workName = "padded elements";
        r.formula = "padded elements x softmax_vector_passes / (vector_elements_per_cycle x bpu_clock_ghz";
        r.params = {"softmax_vector_passes", "vector_elements_per_cycle", "bpu_clock_ghz"};
        break;
    case RateKind::Transform:
        r.workName = "padded output elements";
        r.formula = "padded output elements / (transform_elements_per_cycle x bpu_clock_ghz";
        r.params = {"transform_elements_per_cycle", "bpu_clock_ghz"};
        break;
    case RateKind::Vector:
        r.workName = "padded ops";
        r.formula = "padded ops / (vector_elements_per_cycle x bpu_clock_ghz";
        r.params = {"vector_elements_per_cycle", "bpu_clock_ghz"};
        break;
    }
    if (int16) {
        r.formula += " x int16_throughput_factor";
        r.params.push_back("int16_throughput_factor");
    }
    r.formula += ")";
    return r;
}

bool isGroupedConv(const Node& n) {
    return n.opType == "Conv" && n.attrIntOr("group", 1) > 1;
}

double bpuComputeUs(const NodeAnalysis& a, bool grouped, int64_t movedElements, const TargetProfile& t) {
    if (a.placement != Placement::BPU)
        return 0;
    const RateKind k = rateKind(a, grouped);
    const ComputeRate::Work w = workOf(k);
    const double work = w == ComputeRate::Work::PaddedMacs      ? double(a.paddedMacs)
                        : w == ComputeRate::Work::MovedElements ? double(movedElements)
                                                                : double(a.ops);
    return work / perSecond(k, a.precision == Precision::Int16, t) * 1e6;
}

double ddrUs(int64_t bytes, const TargetProfile& t) {
    return double(bytes) / t.effectiveDdrBytesPerSecond() * 1e6;
}

} // namespace bpu
