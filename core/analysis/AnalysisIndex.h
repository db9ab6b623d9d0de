// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisFwd.h"
#include "core/model/Graph.h"
#include "core/model/Ids.h"
#include "core/target/Placement.h"
#include "core/target/TargetProfile.h"
#include "core/util/SharedText.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace bpu {

/// The op types the passes branch on, so their inner loops compare a byte instead of a string.
enum class OpKind : uint8_t {
    Other,
    Conv,
    ConvTranspose,
    Quantize,   ///< QuantizeLinear
    Dequantize, ///< DequantizeLinear
    Identity,
    BatchNorm,
    Add,
    Clip,
    Concat,
    Gemm,
    MatMul,
    Einsum,
};

/// What the operator table and the graph's wiring say about each node and tensor, in flat arrays. None of it
/// changes under a what-if edit (edits change shapes, attributes and options, never op types or
/// connections), so a session builds it once per target and every re-analysis reuses it: no string-keyed
/// lookup per node per run, and the passes walk small contiguous tables instead of the Node and Tensor
/// objects (at 10k nodes those no longer fit the CPU caches; the sweeps were bound by the misses).
struct OpTable {
    const TargetProfile* target = nullptr;
    size_t nodeCount = 0, tensorCount = 0;
    uint64_t structureStamp = 0; ///< Graph::structureStamp it was built for

    // By node.
    std::vector<OpKind> kind;
    std::vector<const OpRule*> rule;  ///< its operator-table row; null if unknown or in a custom domain
    std::vector<uint8_t> alignsConv;  ///< the row says `align: conv` (G4.2 layouts)
    std::vector<uint32_t> ruleText;   ///< index into `texts` (if rule is set)
    std::vector<uint8_t> readsGroups; ///< a conv whose `group` attribute the passes read
    std::vector<int16_t> headPattern; ///< the last fusion pattern whose head is this op type, or -1
    /// Bit 8 x pattern + stage: this op type is in that stage of that fusion pattern (when stageBits).
    std::vector<uint32_t> stageMask;
    bool stageBits = false;           ///< every pattern's stages fit the mask (4 patterns of 8 stages)
    std::vector<uint8_t> keepsLayout; ///< its row's class keeps a conv layout (elementwise, lut, data, ...)
    /// Its op type selects or loops at run time (NonMaxSuppression, TopK, NonZero, If, Loop, Scan): where a
    /// detector's post-processing tail starts (runPostProcessing).
    std::vector<uint8_t> selectsAtRunTime;
    // By tensor.
    enum : uint8_t { kInitializer = 1, kGraphInput = 2, kGraphOutput = 4 };
    std::vector<uint8_t> flags;
    std::vector<NodeId> producer;
    /// A compile-time constant by the graph's structure, whatever its size: an initializer, a Constant node's
    /// output, or the output of a deterministic op whose every input is one (a weight held in a Constant
    /// node, as paddle2onnx writes them; a QAT weight's QuantizeLinear -> DequantizeLinear; anchors computed
    /// from constants). Small ones also have a folded value; big ones never do.
    std::vector<uint8_t> constant;
    /// Of a constant that is a weight (data a node loads): the stored weight it is (through Identity,
    /// QuantizeLinear, DequantizeLinear: the tensor whose dtype it is loaded at), else itself; invalid for a
    /// run-time tensor and for a constant that is an op's parameter (a Reshape's shape, Clip's bounds).
    /// Weights are initializers, Constant nodes that hold parameters (constantParams) or are too big to
    /// fold, and unfolded computations over weights. Every constant is a compile-time value, never a
    /// feature map (AnalysisIndex::hasValue).
    std::vector<TensorId> weight;
    /// Constant-node outputs counted as parameters (constantNodeParameters()).
    std::vector<TensorId> constantParams;

    std::span<const NodeId> consumers(TensorId t) const {
        return {consumerList.data() + consumerStart[t.value],
                consumerList.data() + consumerStart[t.value + 1]};
    }
    std::span<const TensorId> inputs(NodeId n) const {
        return {inputList.data() + inputStart[n.value], inputList.data() + inputStart[n.value + 1]};
    }
    std::span<const TensorId> outputs(NodeId n) const {
        return {outputList.data() + outputStart[n.value], outputList.data() + outputStart[n.value + 1]};
    }
    bool initializer(TensorId t) const { return flags[t.value] & kInitializer; }
    bool graphInput(TensorId t) const { return flags[t.value] & kGraphInput; }
    bool graphOutput(TensorId t) const { return flags[t.value] & kGraphOutput; }

    /// Placement reasons per operator-table row, built once: "in the operator table (<note>)", ...
    struct RuleText {
        SharedText bpu, cpu, folded; ///< each node placed by the row shares its text
    };
    std::vector<RuleText> texts;

    static std::shared_ptr<const OpTable> build(const Graph& g, const TargetProfile& t);
    /// True when this table was built for `g`'s shape of graph and `t`.
    bool fits(const Graph& g, const TargetProfile& t) const {
        return target == &t && nodeCount == g.nodes.size() && tensorCount == g.tensors.size() &&
               structureStamp == g.structureStamp;
    }

private:
    std::vector<uint32_t> consumerStart, inputStart, outputStart; // offsets, one more than the items
    std::vector<NodeId> consumerList;
    std::vector<TensorId> inputList, outputList;
};

/// Facts the passes share that the current shapes and folded values decide (edits change those), kept in
/// step with the graph: built once, then refreshed after an edit only around the nodes it dirtied. The ones
/// that follow the placements are filled during each run.
struct AnalysisIndex {
    const OpTable* table = nullptr;
    // By node.
    std::vector<uint8_t> compileTime; ///< isCompileTime()
    std::vector<int32_t> groups;      ///< convGroups() where readsGroups, else 1
    /// Of a Conv/ConvTranspose with a weight: its input's and weight's shapes are known and of rank >= 3,
    /// and then the weight's kernel taps (product of dims 2..), dim 1, and the input's channels (dim 1).
    struct ConvShape {
        bool known = false;
        int64_t taps = 1, weightDim1 = 0, inputChannels = 0;
    };
    std::vector<ConvShape> conv;
    std::vector<uint8_t> onBpu;       ///< onBpuGraph(); after segments (fillPlacements)
    std::vector<Placement> placement; ///< NodeAnalysis::placement; after segments (fillPlacements)
    /// An integer op inside a fake-quant (QuantizeLinear -> Clip -> DequantizeLinear); after placement.
    std::vector<uint8_t> qdqMember;
    // By tensor.
    std::vector<int64_t> elements;   ///< TensorShape::elements(), -1 for nullopt
    std::vector<uint8_t> fullyKnown; ///< TensorShape::fullyKnown()
    /// A compile-time constant: Tensor::value is set (small constants, shape arithmetic) or OpTable::constant
    /// (any size: weights in Constant nodes have no value kept).
    std::vector<uint8_t> hasValue;
    std::vector<uint8_t> rank;             ///< TensorShape::rank()
    std::vector<uint8_t> dtypeBytes;       ///< bytesPerElement(dtype)
    std::vector<DataType> dtype;           ///< Tensor::dtype
    std::vector<int32_t> runtimeConsumers; ///< runtimeConsumers()
    std::vector<TensorId> alias;           ///< aliasRoot(); after fusion (fillAliases)

    AnalysisIndex() = default;
    AnalysisIndex(const Graph& g, const OpTable& ops);
    /// After an edit re-derived the shapes of `dirty` (every node whose inputs or outputs changed: what
    /// ShapeEdit passes to Session::reestimate), refreshes those nodes and the tensors they read and write;
    /// nothing else can have changed.
    void refresh(const Graph& g, const std::vector<NodeId>& dirty);
    bool fits(const OpTable& ops) const { return table == &ops; }

    const OpTable& ops() const { return *table; }
    /// aliasRoot() for every tensor; needs the Q/DQ placements, final after fusion.
    void fillAliases(const Graph& g, const AnalysisResult& r);
    /// Placement and onBpuGraph() of every node, final after segments.
    void fillPlacements(const AnalysisResult& r);

    bool known(TensorId t) const { return fullyKnown[t.value] != 0; }
    /// Element count, 0 when unknown (TensorShape::elements().value_or(0)).
    int64_t count(TensorId t) const { return std::max<int64_t>(0, elements[t.value]); }

private:
    void refreshTensor(const Tensor& t);
    void refreshNode(const Graph& g, const Node& n);
    void countRuntimeConsumers(TensorId t);
};

} // namespace bpu
