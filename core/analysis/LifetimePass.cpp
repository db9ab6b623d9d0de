// SPDX-License-Identifier: MIT
// G6.4: how long each feature map stays live and whether it fits the SRAM budget. Walks the topological
// order holding live tensors on chip; when a new tensor does not fit, the live tensor whose next use is
// furthest away is dumped to DDR (Belady's rule - what a good compiler approximates). A tensor larger than
// the whole budget spills by itself. A tensor whose consumers all run within `stream_window_steps` of its
// producer streams through SRAM tile by tile and never reaches DDR.
#include "NamedIds.h"
#include "Passes.h"
#include "core/util/CheckedMath.h"

#include <algorithm>

namespace bpu {

void runLifetimes(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const AnalysisIndex& ix = *c.ix;
    const auto& pos = g.topoIndex();
    const int64_t budget = clampToInt64(c.target.sramBudgetBytes.value);
    const int64_t streamWindow = clampToInt64(c.target.streamWindowSteps.value);
    const size_t tensorCount = g.tensors.size();

    const OpTable& ops = ix.ops();
    auto internal = [&](TensorId t) {
        // Produced and consumed inside one fused group: never materialised.
        const NodeId producer = ops.producer[t.value];
        if (!producer.valid())
            return false;
        GroupId gid = r.nodes[producer.value].fusionGroup;
        if (!gid.valid() || ops.graphOutput(t))
            return false;
        for (NodeId cns : ops.consumers(t))
            if (r.nodes[cns.value].fusionGroup != gid && !ix.compileTime[cns.value])
                return false;
        return ix.runtimeConsumers[t.value] > 0;
    };
    // Run-time tensors written by a node (not weights, not folded constants).
    auto written = [&](size_t i) {
        return !ops.initializer(TensorId{static_cast<uint32_t>(i)}) && !ix.hasValue[i] &&
               ops.producer[i].valid();
    };

    // In a QDQ model c -> Q -> DQ is one buffer: the uses of the aliases extend the life of the root. The
    // consumer steps of each root, aliases folded in, as one flat table (offsets per tensor): a Shape node
    // reads no data and is no use.
    std::vector<uint32_t> useStart(tensorCount + 1, 0);
    for (size_t i = 0; i < tensorCount; ++i)
        for (NodeId cns : ops.consumers(TensorId{static_cast<uint32_t>(i)}))
            useStart[ix.alias[i].value + 1] += !ix.compileTime[cns.value];
    for (size_t i = 0; i < tensorCount; ++i)
        useStart[i + 1] += useStart[i];
    std::vector<uint32_t> uses(useStart[tensorCount]);
    {
        std::vector<uint32_t> fill(useStart.begin(), useStart.end() - 1);
        for (size_t i = 0; i < tensorCount; ++i)
            for (NodeId cns : ops.consumers(TensorId{static_cast<uint32_t>(i)}))
                if (!ix.compileTime[cns.value])
                    uses[fill[ix.alias[i].value]++] = pos[cns.value];
    }
    auto usesOf = [&](TensorId t) {
        return std::pair<const uint32_t*, const uint32_t*>(uses.data() + useStart[t.value],
                                                           uses.data() + useStart[t.value + 1]);
    };

    // The tensors each step writes that take part in residency, in tensor order.
    std::vector<std::pair<uint32_t, TensorId>> produced;
    for (size_t i = 0; i < tensorCount; ++i) {
        if (!written(i))
            continue;
        const TensorId t{static_cast<uint32_t>(i)};
        TensorAnalysis& ta = r.tensors[i];
        const uint32_t from = pos[ops.producer[i].value];
        const bool isRoot = ix.alias[i] == t;
        uint32_t last = from;
        if (isRoot) {
            auto [b, e] = usesOf(t);
            for (auto u = b; u != e; ++u)
                last = std::max(last, *u);
        }
        for (NodeId cns : ops.consumers(t))
            if (!ix.compileTime[cns.value])
                last = std::max(last, pos[cns.value]);
        ta.liveSteps = static_cast<int>(last - from);
        // Everything the BPU graph writes (a fused group's output comes from its folded Relu) except weights
        // dequantized at compile time and Q/DQ aliases, which share their root's buffer.
        if (ix.onBpu[ops.producer[i].value] && isRoot && !ops.weight[i].valid() && !internal(t))
            produced.emplace_back(from, t);
    }
    // By step, and within a step in tensor order (as the walk below met them).
    std::stable_sort(produced.begin(), produced.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });

    for (TensorId in : g.inputs)
        r.tensors[in.value].spillsToDdr = true; // the input image arrives in DDR
    for (TensorId out : g.outputs)
        r.tensors[out.value].spillsToDdr = true;
    // What crosses between the CPU and the BPU is handed over in DDR; each crossing is a switch of units,
    // waited for by its first consumer on the other side.
    for (size_t i = 0; i < tensorCount; ++i) {
        if (!written(i))
            continue;
        const NodeId p = ops.producer[i];
        const bool fromCpu = ix.placement[p.value] == Placement::CPU;
        if (!fromCpu && !ix.onBpu[p.value])
            continue;
        NodeId receiver;
        for (NodeId cns : ops.consumers(TensorId{static_cast<uint32_t>(i)}))
            if (fromCpu ? ix.onBpu[cns.value] != 0 : ix.placement[cns.value] == Placement::CPU) {
                receiver = cns;
                break;
            }
        if (receiver.valid()) {
            r.tensors[i].spillsToDdr = true;
            r.crossings.push_back({TensorId{static_cast<uint32_t>(i)}, receiver});
        }
    }

    struct Live {
        TensorId id;
        uint32_t end;
        int64_t bytes;
    };
    std::vector<Live> live; // in the order they were admitted
    int64_t used = 0;
    // The next step that reads `t`, counting the current one: a tensor read by the node running now cannot
    // be dumped to make room for that node's output.
    auto nextUse = [&](TensorId t, uint32_t now) {
        uint32_t best = UINT32_MAX;
        auto [b, e] = usesOf(t);
        for (auto u = b; u != e; ++u)
            if (*u >= now)
                best = std::min(best, *u);
        return best;
    };
    const std::vector<uint8_t> resident = tensorsNamed(g, c.options.assumeResident);
    for (const auto& entry : produced) {
        // Plain copies, not a structured binding: clang 14 cannot capture a binding in a lambda.
        const uint32_t step = entry.first;
        const TensorId t = entry.second;
        // Free what is dead.
        live.erase(std::remove_if(live.begin(), live.end(),
                                  [&](const Live& l) {
                                      if (l.end >= step)
                                          return false;
                                      used -= l.bytes;
                                      return true;
                                  }),
                   live.end());
        TensorAnalysis& ta = r.tensors[t.value];
        // Consumed within the streaming window: tiles flow producer -> consumers on chip, whatever the
        // tensor's total size, and only a tile's worth of SRAM is held.
        if (ta.liveSteps <= streamWindow && !ops.graphOutput(t))
            continue;
        if (named(resident, t.value))
            continue; // what-if: kept on chip outside the budget
        const int64_t bytes = ta.paddedBytes;
        const uint32_t end = step + static_cast<uint32_t>(ta.liveSteps);
        if (bytes > budget) {
            ta.spillsToDdr = true;
            continue;
        }
        while (used + bytes > budget && !live.empty()) {
            // The first live tensor with the furthest next use (ties: the one admitted first).
            auto victim = live.begin();
            uint32_t victimUse = nextUse(victim->id, step);
            for (auto it = live.begin() + 1; it != live.end(); ++it)
                if (const uint32_t u = nextUse(it->id, step); u > victimUse) {
                    victim = it;
                    victimUse = u;
                }
            if (victimUse <= nextUse(t, step))
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
    for (size_t i = 0; i < tensorCount; ++i) {
        const TensorId root = ix.alias[i];
        if (root.value != i && r.tensors[root.value].spillsToDdr)
            r.tensors[i].spillsToDdr = true;
    }
}

} // namespace bpu
