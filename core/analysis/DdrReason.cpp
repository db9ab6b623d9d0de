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

std::string ddrReason(const Graph& g, const AnalysisResult& r, const TargetProfile& t, TensorId id,
                      DdrWording wording) {
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
    const bool keys = wording == DdrWording::ProfileKeys;
    const std::string budget = keys ? "sram_budget_bytes = " + integer(t.sramBudgetBytes.value)
                                    : "the SRAM budget of " + integer(t.sramBudgetBytes.value) + " bytes";
    if (double(ta.paddedBytes) > t.sramBudgetBytes.value)
        return std::to_string(ta.paddedBytes) + " bytes (padded) exceed " + budget;
    const std::string window =
        keys ? "stream_window_steps = " + integer(t.streamWindowSteps.value)
             : "the streaming window of " + integer(t.streamWindowSteps.value) + " steps";
    return "live " + std::to_string(ta.liveSteps) + " steps, past " + window + ", and displaced from SRAM (" +
           budget + ") by tensors used sooner";
}

std::vector<DdrTensor> layerDdrTraffic(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                                       NodeId node, DdrWording wording) {
    std::vector<DdrTensor> out;
    if (!node.valid() || node.value >= r.nodes.size())
        return out;
    const FusedGroup* grp = r.group(r.nodes[node.value].fusionGroup);
    const std::vector<NodeId> members = grp ? grp->nodes : std::vector<NodeId>{node};
    std::vector<TensorId> seen;
    for (NodeId m : members)
        for (const auto* list : {&g.node(m).inputs, &g.node(m).outputs})
            for (TensorId id : *list) {
                if (!id.valid() || std::find(seen.begin(), seen.end(), id) != seen.end())
                    continue;
                seen.push_back(id);
                if (std::string why = ddrReason(g, r, t, id, wording); !why.empty())
                    out.push_back({id, std::move(why)});
            }
    return out;
}

} // namespace bpu
