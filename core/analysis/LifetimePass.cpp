// SPDX-License-Identifier: MIT
// G6.4: how long each feature map stays live and whether it fits the SRAM budget. Walks the topological
// order holding live tensors on chip; when a new tensor does not fit, the live tensor whose next use is
// furthest away is dumped to DDR (Belady's rule - what a good compiler approximates). A tensor larger than
// the whole budget spills by itself. A tensor whose consumers all run within `stream_window_steps` of its
// producer streams through SRAM tile by tile and never reaches DDR.
#include "Passes.h"

#include <algorithm>
#include <list>

namespace bpu {

void runLifetimes(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const auto& pos = g.topoIndex();
    const int64_t budget = static_cast<int64_t>(c.target.sramBudgetBytes.value);
    const int streamWindow = static_cast<int>(c.target.streamWindowSteps.value);

    auto internal = [&](const Tensor& t) {
        // Produced and consumed inside one fused group: never materialised.
        if (!t.producer.valid())
            return false;
        GroupId gid = r.nodes[t.producer.value].fusionGroup;
        if (!gid.valid() || t.isGraphOutput)
            return false;
        for (NodeId cns : t.consumers)
            if (r.nodes[cns.value].fusionGroup != gid && !isCompileTime(g, g.node(cns)))
                return false;
        return runtimeConsumers(g, t) > 0;
    };

    // Start/end step per tensor that lives on the BPU.
    struct Live {
        TensorId id;
        uint32_t end;
        int64_t bytes;
    };
    // In a QDQ model c -> Q -> DQ is one buffer: the uses of the aliases extend the life of the root.
    std::vector<TensorId> root(g.tensors.size());
    std::vector<std::vector<uint32_t>> uses(g.tensors.size()); // consumer steps, aliases folded into the root
    for (const auto& t : g.tensors) {
        root[t.id.value] = aliasRoot(g, r, t.id);
        for (NodeId cns : t.consumers)
            if (!isCompileTime(g, g.node(cns))) // a Shape node reads no data
                uses[root[t.id.value].value].push_back(pos[cns.value]);
    }
    std::vector<std::vector<TensorId>> producedAt(g.nodes.size());
    for (const auto& t : g.tensors) {
        TensorAnalysis& ta = r.tensors[t.id.value];
        if (t.isInitializer || t.value || !t.producer.valid())
            continue;
        uint32_t last = pos[t.producer.value];
        if (root[t.id.value] == t.id)
            for (uint32_t u : uses[t.id.value])
                last = std::max(last, u);
        for (NodeId cns : t.consumers)
            if (!isCompileTime(g, g.node(cns)))
                last = std::max(last, pos[cns.value]);
        ta.liveSteps = static_cast<int>(last - pos[t.producer.value]);
        // Everything the BPU graph writes (a fused group's output comes from its folded Relu) except weights
        // dequantized at compile time and Q/DQ aliases, which share their root's buffer.
        if (onBpuGraph(r.nodes[t.producer.value]) && !internal(t) && root[t.id.value] == t.id &&
            !weightSource(g, t.id).valid())
            producedAt[pos[t.producer.value]].push_back(t.id);
    }
    for (TensorId in : g.inputs)
        r.tensors[in.value].spillsToDdr = true; // the input image arrives in DDR
    for (TensorId out : g.outputs)
        r.tensors[out.value].spillsToDdr = true;
    // What crosses between the CPU and the BPU is handed over in DDR.
    for (const auto& t : g.tensors) {
        if (t.isInitializer || t.value || !t.producer.valid())
            continue;
        const NodeAnalysis& p = r.nodes[t.producer.value];
        bool cpuUse = false, bpuUse = false;
        for (NodeId cns : t.consumers) {
            cpuUse |= r.nodes[cns.value].placement == Placement::CPU;
            bpuUse |= onBpuGraph(r.nodes[cns.value]);
        }
        if (p.placement == Placement::CPU ? bpuUse : onBpuGraph(p) && cpuUse)
            r.tensors[t.id.value].spillsToDdr = true;
    }

    std::list<Live> live;
    int64_t used = 0;
    // The next step that reads `t`, counting the current one: a tensor read by the node running now cannot
    // be dumped to make room for that node's output.
    auto nextUse = [&](TensorId t, uint32_t now) {
        uint32_t best = UINT32_MAX;
        for (uint32_t u : uses[t.value])
            if (u >= now)
                best = std::min(best, u);
        return best;
    };
    for (uint32_t step = 0; step < g.topoOrder.size(); ++step) {
        // Free what is dead.
        for (auto it = live.begin(); it != live.end();) {
            if (it->end < step) {
                used -= it->bytes;
                it = live.erase(it);
            } else {
                ++it;
            }
        }
        for (TensorId t : producedAt[step]) {
            TensorAnalysis& ta = r.tensors[t.value];
            // Consumed within the streaming window: tiles flow producer -> consumers on chip, whatever the
            // tensor's total size, and only a tile's worth of SRAM is held.
            if (ta.liveSteps <= streamWindow && !g.tensor(t).isGraphOutput)
                continue;
            if (c.options.assumeResident.count(g.tensor(t).name))
                continue; // what-if: kept on chip outside the budget
            const int64_t bytes = ta.paddedBytes;
            uint32_t end = step + static_cast<uint32_t>(ta.liveSteps);
            if (bytes > budget) {
                ta.spillsToDdr = true;
                continue;
            }
            while (used + bytes > budget && !live.empty()) {
                auto victim = std::max_element(live.begin(), live.end(), [&](const Live& a, const Live& b) {
                    return nextUse(a.id, step) < nextUse(b.id, step);
                });
                if (nextUse(victim->id, step) <= nextUse(t, step))
                    break; // the newcomer is the one used last: it goes to DDR instead
                r.tensors[victim->id.value].spillsToDdr = true;
                used -= victim->bytes;
                live.erase(victim);
            }
            if (used + bytes > budget) {
                ta.spillsToDdr = true;
                continue;
            }
            live.push_back({t, end, bytes});
            used += bytes;
        }
    }
    for (const auto& t : g.tensors)
        if (root[t.id.value] != t.id && r.tensors[root[t.id.value].value].spillsToDdr)
            r.tensors[t.id.value].spillsToDdr = true;
}

} // namespace bpu
