// SPDX-License-Identifier: MIT
#include "Roofline.h"

namespace bpu {

double bpuComputeUs(const NodeAnalysis& a, bool grouped, int64_t movedElements, const TargetProfile& t) {
    if (a.placement != Placement::BPU)
        return 0;
    const double precision = a.precision == Precision::Int16 ? t.int16ThroughputFactor.value : 1.0;
    const double clockHz = t.bpuClockGhz.value * 1e9;
    double seconds = 0;
    const std::string& cls = a.opClass;
    if (cls == "conv") {
        double eff = grouped ? t.groupConvEfficiency.value : t.denseConvEfficiency.value;
        seconds = double(a.paddedMacs) / (t.peakMacsPerSecond() * eff * precision);
    } else if (cls == "matmul") {
        // A MatMul with no weight multiplies two activations (attention): nothing to preload, the second
        // operand is laid out on chip per inference.
        const double eff = a.weightBytes > 0 ? t.matmulEfficiency.value : t.matmulActEfficiency.value;
        seconds = double(a.paddedMacs) / (t.peakMacsPerSecond() * eff * precision);
    } else if (cls == "softmax") {
        // Split into its vector passes (Sub, LUT, ReduceSum, ReduceMax, LUT, Mul) over the padded tensor.
        seconds = double(movedElements) * t.softmaxVectorPasses.value /
                  (t.vectorElementsPerCycle.value * clockHz * precision);
    } else if (cls == "transform" || cls == "data") {
        seconds = double(movedElements) / (t.transformElementsPerCycle.value * clockHz * precision);
    } else {
        seconds = double(a.ops) / (t.vectorElementsPerCycle.value * clockHz * precision);
    }
    return seconds * 1e6;
}

double ddrUs(int64_t bytes, const TargetProfile& t) {
    return double(bytes) / t.effectiveDdrBytesPerSecond() * 1e6;
}

} // namespace bpu
