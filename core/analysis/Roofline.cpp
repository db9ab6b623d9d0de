// SPDX-License-Identifier: MIT
#include "Roofline.h"

namespace bpu {

ComputeRate bpuComputeRate(const NodeAnalysis& a, bool grouped, const TargetProfile& t) {
    using Work = ComputeRate::Work;
    const bool int16 = a.precision == Precision::Int16;
    const double precision = int16 ? t.int16ThroughputFactor.value : 1.0;
    const double clockHz = t.bpuClockGhz.value * 1e9;
    ComputeRate r;
    const std::string& cls = a.opClass;
    if (cls == "conv" || cls == "matmul") {
        // A MatMul with no weight multiplies two activations (attention): nothing to preload, the second
        // operand is laid out on chip per inference, at its own efficiency.
        const bool actMatmul = cls == "matmul" && a.weightBytes == 0;
        const char* eff = actMatmul         ? "matmul_act_efficiency"
                          : cls == "matmul" ? "matmul_efficiency"
                          : grouped         ? "group_conv_efficiency"
                                            : "dense_conv_efficiency";
        const double e = actMatmul         ? t.matmulActEfficiency.value
                         : cls == "matmul" ? t.matmulEfficiency.value
                         : grouped         ? t.groupConvEfficiency.value
                                           : t.denseConvEfficiency.value;
        r = {Work::PaddedMacs,
             "padded MACs",
             t.peakMacsPerSecond() * e * precision,
             std::string("padded MACs / (peak_int8_tops / 2 x ") + eff,
             {"peak_int8_tops", eff}};
    } else if (cls == "softmax") {
        // Split into its vector passes (Sub, LUT, ReduceSum, ReduceMax, LUT, Mul) over the padded tensor.
        r = {Work::MovedElements,
             "padded elements",
             t.vectorElementsPerCycle.value * clockHz * precision / t.softmaxVectorPasses.value,
             "padded elements x softmax_vector_passes / (vector_elements_per_cycle x bpu_clock_ghz",
             {"softmax_vector_passes", "vector_elements_per_cycle", "bpu_clock_ghz"}};
    } else if (cls == "transform" || cls == "data") {
        r = {Work::MovedElements,
             "padded output elements",
             t.transformElementsPerCycle.value * clockHz * precision,
             "padded output elements / (transform_elements_per_cycle x bpu_clock_ghz",
             {"transform_elements_per_cycle", "bpu_clock_ghz"}};
    } else {
        r = {Work::PaddedOps,
             "padded ops",
             t.vectorElementsPerCycle.value * clockHz * precision,
             "padded ops / (vector_elements_per_cycle x bpu_clock_ghz",
             {"vector_elements_per_cycle", "bpu_clock_ghz"}};
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
    const ComputeRate r = bpuComputeRate(a, grouped, t);
    const double work = r.work == ComputeRate::Work::PaddedMacs      ? double(a.paddedMacs)
                        : r.work == ComputeRate::Work::MovedElements ? double(movedElements)
                                                                     : double(a.ops);
    return work / r.perSecond * 1e6;
}

double ddrUs(int64_t bytes, const TargetProfile& t) {
    return double(bytes) / t.effectiveDdrBytesPerSecond() * 1e6;
}

} // namespace bpu
