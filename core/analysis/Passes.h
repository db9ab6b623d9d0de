// SPDX-License-Identifier: MIT
#pragma once

// The analysis passes, run in this order by Analyzer. Each is one small unit over a shared context. They
// state facts; the design guide's rules over those facts are core/advice (Rules.h, Advisor.h).

#include "AnalysisIndex.h"
#include "AnalysisOptions.h"
#include "AnalysisResult.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <span>
#include <vector>

namespace bpu {

struct AnalysisContext {
    const Graph& g;
    const TargetProfile& target;
    const AnalysisOptions& options;
    AnalysisResult& r;
    /// Shared per-run tables; the fact passes need it, the finding passes use the helpers below.
    AnalysisIndex* ix = nullptr;
    /// A re-analysis of `r` after an edit: the nodes whose shapes it re-derived (Analyzer::reanalyze); null
    /// when `r` is new. A pass may keep what it stored in `r` for anything the edit cannot have changed.
    const std::vector<NodeId>* dirty = nullptr;
};

void runPlacement(AnalysisContext& c); ///< G1.2: BPU / CPU / folded with the reason, and precision
/// Deployment settings: per-node precision, removable boundary ops stripped (AnalysisOptions::deploy)
void runDeployment(AnalysisContext& c);
void runFusion(AnalysisContext& c);         ///< G3: fused groups and missed fusions
void runSegments(AnalysisContext& c);       ///< G1.2: BPU segments split by CPU nodes
void runQdq(AnalysisContext& c);            ///< G1.1: explicit and implicit quantize/dequantize passes
void runTransitions(AnalysisContext& c);    ///< G1.2: CPU<->BPU switches, one per segment entry / exit
void runPostProcessing(AnalysisContext& c); ///< G1.2: the decode/NMS tail after the last layers
void runPadding(AnalysisContext& c);        ///< G4: padded shapes, waste, padded MACs
void runTraffic(AnalysisContext& c);        ///< G6: bytes moved, intensity, bound
void runLifetimes(AnalysisContext& c);      ///< G6.4: live ranges and SRAM residency

// DDR traffic of a tensor that spills (TensorAnalysis::spillsToDdr), as runTraffic charges it to the nodes'
// ddr_bytes and the G6.4 finding states it: the node that writes it stores it once, unless it never leaves
// the writer's fused group; every node input that names it loads it once, unless that node is in the
// writer's fused group.
/// A node in fused group `reader` reads a tensor written in group `writer` on chip (both in one group).
inline bool readInsideGroup(GroupId writer, GroupId reader) {
    return reader.valid() && writer == reader;
}
/// Every one of `consumers` is in `writer`'s fused group and the tensor is no model output: it is never
/// stored.
bool keptInsideGroup(GroupId writer, bool graphOutput, std::span<const NodeId> consumers,
                     const std::vector<NodeAnalysis>& nodes);
/// One load of a spilled tensor: the model input at its real size (the runtime pads only its stride; padding
/// to the conv's C unit happens on chip), anything else padded.
inline int64_t ddrLoadBytes(const TensorAnalysis& ta, bool graphInput) {
    return graphInput ? ta.bytes : ta.paddedBytes;
}
/// A spilled tensor's bytes over DDR per inference: its store plus one load per node input reading it (0 for
/// a tensor that does not spill).
int64_t spilledTensorDdrBytes(const Graph& g, const AnalysisResult& r, TensorId t);

/// Bytes per element a tensor occupies where the node runs (int8/int16 on the BPU, its dtype on the CPU).
int64_t bytesAtPrecision(Precision p, int64_t dtypeBytes);
/// Conv weight / group attributes helpers shared by passes.
int64_t convGroups(const Node& n);
/// A node evaluated at compile time (every output has a known value: Shape, Size, constant arithmetic).
bool isCompileTime(const Graph& g, const Node& n);
/// Consumers of `t` that read it at run time (a Shape node only reads its static shape).
int runtimeConsumers(const Graph& g, const Tensor& t);
/// On the BPU graph: run by the BPU, or folded into a BPU segment (BN/Relu/Q/DQ annotations): the tensors it
/// writes live on the BPU at its precision. Needs runSegments.
bool onBpuGraph(const NodeAnalysis& a);
/// A weight: an initializer, or one seen through Identity nodes (how torch shares equal initializers) and a
/// DequantizeLinear (how QDQ models store quantized weights). The initializer behind it, or an invalid id for
/// an activation.
TensorId weightSource(const Graph& g, TensorId t);
/// In a QDQ model c -> QuantizeLinear -> DequantizeLinear annotates one BPU buffer: the outputs of a folded
/// Q/DQ annotation are aliases of its input. Returns the tensor at the start of such a chain (`t` itself when
/// it is not an alias).
TensorId aliasRoot(const Graph& g, const AnalysisResult& r, TensorId t);

} // namespace bpu
