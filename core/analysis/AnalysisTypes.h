// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Ids.h"
#include "core/target/OpClass.h"
#include "core/target/Placement.h"
#include "core/util/SharedText.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bpu {

enum class Bound { None, Compute, Memory };
enum class Precision { Int8, Int16, Float };
/// Which alignment rule pads a tensor on the BPU (guide G4).
enum class PadRule {
    None,     ///< not padded (off the BPU, unknown shape, a constant)
    Input,    ///< an image model input, laid out by the runtime: H and W to the input units, C kept
    ConvLike, ///< G4.2: a conv-like NCHW / NCW tensor, C, H, W to the conv units
    General,  ///< G4.1: every other tensor, each dim to a power of two up to the general unit
};

// AnalysisFwd.h's headers default these members to a value-initialised enum, without the enumerators in
// sight.
static_assert(Bound{} == Bound::None && Precision{} == Precision::Int8 && PadRule{} == PadRule::None);

const char* boundName(Bound b);         ///< "-", "compute", "memory"
const char* precisionName(Precision p); ///< "int8", "int16", "float"
const char* padRuleName(PadRule r);     ///< "input", "G4.2", "G4.1"; "" for None

/// A tensor's shape after BPU alignment (guide G4) and which rule padded which dim.
struct PaddedShape {
    bool applies = false; ///< false: not on the BPU, unknown shape, or a compile-time constant
    PadRule rule = PadRule::None;
    std::vector<int64_t> dims; ///< padded dims
    // Which rule padded each dim is text made on demand: dimPadRule() (Alignment.h).
    int64_t elements = 0, paddedElements = 0;
    int64_t wasteBytes = 0; ///< (padded - real) x bytes at the BPU precision
    double wasteRatio() const { return paddedElements ? 1.0 - double(elements) / double(paddedElements) : 0; }
};

struct TensorAnalysis {
    PaddedShape padded;
    int64_t bytes = 0; ///< real elements x bytes at the precision it is stored at (int8 on the BPU)
    int64_t paddedBytes = 0;
    int liveSteps = 0;        ///< topological steps between producer and last consumer
    bool spillsToDdr = false; ///< does not stay resident in the SRAM budget (G6.4)
    /// The padding pass' memo (0: not computed): what decided `padded`, `bytes` and `paddedBytes` besides
    /// the shape, so a re-analysis after an edit recomputes only the tensors where it or the shape changed.
    uint8_t paddingKey = 0;
};

struct NodeAnalysis {
    Placement placement = Placement::BPU;
    SharedText placementReason; ///< why it runs where it does; shared with every node that says the same
    bool placementOverridden = false;
    /// Operator-table class (conv, matmul, lut, ...), Unknown if not in the table
    OpClass opClass = OpClass::Unknown;
    Precision precision = Precision::Int8;
    int segment = -1;    ///< BPU segment index, -1 off the BPU
    GroupId fusionGroup; ///< valid when the node is part of a fused group
    int64_t macs = 0, paddedMacs = 0, ops = 0;
    int64_t inputBytes = 0, outputBytes = 0, weightBytes = 0; ///< at the node's precision, padded on the BPU
    int64_t ddrBytes = 0;      ///< of those, what crosses DDR: weights + spilled inputs/outputs (G6)
    int64_t ddrStoreBytes = 0; ///< the part of ddrBytes written back (spilled outputs); the rest is loaded
    double computeUs = 0, memoryUs = 0; ///< roofline times from the profile (see Roofline.h)
    double intensity = 0;               ///< padded MACs per DDR byte (ddrBytes)
    Bound bound = Bound::None;
    bool assumedFree = false; ///< what-if: removed (AnalysisOptions::assumeRemoved), costs nothing
    /// A removable op at the model's start or end that the deployment strips (remove_node_type): placed
    /// Folded, costs nothing; pre/post-processing does its work.
    bool removedByDeploy = false;
};

/// A quantize or dequantize pass over a whole tensor (guide G1.1).
struct QdqPass {
    TensorId tensor;
    NodeId node;       ///< the explicit Q/DQ node, invalid for an implicit one
    std::string kind;  ///< "quantize" or "dequantize"
    std::string where; ///< "model input", "model output", "CPU->BPU", "BPU->CPU", "explicit"
    int64_t elements = 0;
};

/// A run-time tensor handed between the CPU and the BPU: a switch of units (G1.2), paid once per inference.
struct Crossing {
    TensorId tensor;
    NodeId receiver; ///< its first consumer on the other unit: the node that waits for the switch
};

/// A switch of units (G1.2): the runtime enters a BPU segment from the CPU, or leaves it for the CPU. Each
/// segment is entered at most once (whatever number of tensors the CPU hands it) and left at most once;
/// the quantize/dequantize at the model's own inputs and outputs is not a switch (a one-segment model has
/// none).
struct Transition {
    int segment = -1;
    bool toBpu = true; ///< CPU -> BPU (entering the segment), else BPU -> CPU
    NodeId receiver;   ///< the first node (in topological order) on the new unit that waits for it
};

struct FusedGroup {
    GroupId id;
    std::vector<NodeId> nodes; ///< head first, in chain order
    std::string pattern;       ///< e.g. "Conv+BatchNormalization+Relu"
    bool fused = true;         ///< false when the user (or --unfuse) keeps it apart
};

struct MissedFusion {
    std::vector<NodeId> nodes;
    std::string reason;
};

struct AnalysisSummary {
    int bpuNodes = 0, cpuNodes = 0, foldedNodes = 0, bpuSegments = 0;
    int qdqNodes = 0;  ///< explicit QuantizeLinear/DequantizeLinear nodes
    int qdqPasses = 0; ///< passes that cost time (explicit at boundaries + implicit)
    int64_t qdqElements = 0;
    int64_t paddingWasteBytes = 0;
    double paddingWasteRatio = 0; ///< waste / padded bytes over every padded activation tensor
    int fusedGroups = 0, missedFusions = 0;
    int unknownOps = 0;
    int cpuBpuTransitions = 0;   ///< switches of units (r.transitions), what cpu_bpu_switch_us is charged for
    int postProcessingNodes = 0; ///< nodes of the post-processing tail (PostProcessPass.cpp)
};

} // namespace bpu
