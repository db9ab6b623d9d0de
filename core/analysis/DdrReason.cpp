// SPDX-License-Identifier: MIT
#include "DdrReason.h"

#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <algorithm>

namespace bpu {

namespace {
std::string integer(double v) {
    return std::to_string(static_cast<long long>(v));
}
} // namespace

std::string ddrReason(const Graph& g, const AnalysisResult& r, const TargetProfile& t, TensorId id) {
    if (!id.valid() || id.value >= r.tensors.size() || !r.tensors[id.value].spillsToDdr)
        return {};
    const TensorAnalysis& ta = r.tensors[id.value];
    if (std::find(g.inputs.begin(), g.inputs.end(), id) != g.inputs.end())
        return "the model input arrives in DDR";
    if (std::find(g.outputs.begin(), g.outputs.end(), id) != g.outputs.end())
        return "a model output is written to DDR";
    if (std::any_of(r.crossings.begin(), r.crossings.end(),
                    [id](const Crossing& c) { return c.tensor == id; }))
        return "handed between the CPU and the BPU in DDR";
    const std::string budget = "sram_budget_bytes = " + integer(t.sramBudgetBytes.value);
    if (double(ta.paddedBytes) > t.sramBudgetBytes.value)
        return std::to_string(ta.paddedBytes) + " bytes (padded) exceed " + budget;
    return "live " + std::to_string(ta.liveSteps) +
           " steps, past stream_window_steps = " + integer(t.streamWindowSteps.value) +
           ", and displaced from SRAM (" + budget + ") by tensors used sooner";
}

} // namespace bpu
