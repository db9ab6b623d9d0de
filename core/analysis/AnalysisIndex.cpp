// SPDX-License-Identifier: MIT
#include "AnalysisIndex.h"

#include "Passes.h"
#include "core/metrics/ConstantParams.h"
#include "core/model/EinsumEquation.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace bpu {

namespace {

// By op type alone, as the passes always compared it (a custom-domain QuantizeLinear is still a quantize).
OpKind kindOf(const Node& n) {
    static const std::unordered_map<std::string, OpKind> kinds{
        {"Conv", OpKind::Conv},
        {"ConvTranspose", OpKind::ConvTranspose},
        {"QuantizeLinear", OpKind::Quantize},
        {"DequantizeLinear", OpKind::Dequantize},
        {"Identity", OpKind::Identity},
        {"BatchNormalization", OpKind::BatchNorm},
        {"Add", OpKind::Add},
        {"Clip", OpKind::Clip},
        {"Concat", OpKind::Concat},
        {"Gemm", OpKind::Gemm},
        {"MatMul", OpKind::MatMul},
        {"Einsum", OpKind::Einsum},
    };
    auto it = kinds.find(n.opType);
    return it == kinds.end() ? OpKind::Other : it->second;
}

// Ops whose output is not a function of their inputs alone (random draws) or that run a subgraph reading
// outer values: never compile-time constants, whatever they read.
bool deterministic(const Node& n) {
    static const std::unordered_set<std::string> impure{"RandomUniform",
                                                        "RandomNormal",
                                                        "RandomUniformLike",
                                                        "RandomNormalLike",
                                                        "Multinomial",
                                                        "Bernoulli",
                                                        "If",
                                                        "Loop",
                                                        "Scan"};
    return n.domain.empty() && n.subgraphCount == 0 && !impure.count(n.opType);
}

// Ops through which a constant stays the same weight, loaded at its root's dtype: torch shares equal
// initializers through Identity, a quantized weight is DQ(int8), a QAT weight Q(float) -> DQ.
bool weightView(const Node& n) {
    return n.opType == "Identity" || n.opType == "QuantizeLinear" || n.opType == "DequantizeLinear";
}

// Flattens per-item lists into offsets + one array (invalid ids kept: passes skip them as before).
template <typename Item, typename Get>
void flatten(size_t count, Get get, std::vector<uint32_t>& start, std::vector<Item>& list) {
    start.assign(count + 1, 0);
    for (size_t i = 0; i < count; ++i)
        start[i + 1] = start[i] + static_cast<uint32_t>(get(i).size());
    list.clear();
    list.reserve(start[count]);
    for (size_t i = 0; i < count; ++i)
        list.insert(list.end(), get(i).begin(), get(i).end());
}

} // namespace

std::shared_ptr<const OpTable> OpTable::build(const Graph& g, const TargetProfile& t) {
    auto table = std::make_shared<OpTable>();
    OpTable& o = *table;
    o.target = &t;
    o.nodeCount = g.nodes.size();
    o.tensorCount = g.tensors.size();
    o.structureStamp = g.structureStamp;
    std::unordered_map<const OpRule*, uint32_t> textOf;
    for (const auto& [op, rule] : t.operators) {
        textOf.emplace(&rule, static_cast<uint32_t>(o.texts.size()));
        o.texts.push_back({"in the operator table (" + rule.note + ")", "CPU operator (" + rule.note + ")",
                           "folded at compile time (" + rule.note + ")"});
    }
    // One lookup per distinct op type, not per node.
    std::unordered_map<std::string, const OpRule*> byType;
    const size_t nodes = g.nodes.size(), tensors = g.tensors.size();
    o.kind.resize(nodes);
    o.rule.resize(nodes);
    o.alignsConv.resize(nodes);
    o.ruleText.resize(nodes);
    o.readsGroups.resize(nodes);
    o.headPattern.resize(nodes);
    o.stageMask.assign(nodes, 0);
    o.stageBits = t.fusionPatterns.size() <= 4;
    for (const auto& p : t.fusionPatterns)
        o.stageBits = o.stageBits && p.then.size() <= 8;
    o.keepsLayout.resize(nodes);
    o.selectsAtRunTime.resize(nodes);
    for (const auto& n : g.nodes) {
        const uint32_t i = n.id.value;
        o.kind[i] = kindOf(n);
        const std::string& op = n.opType;
        o.selectsAtRunTime[i] = op == "NonMaxSuppression" || op == "TopK" || op == "NonZero" || op == "If" ||
                                op == "Loop" || op == "Scan";
        auto [it, fresh] = byType.try_emplace(n.opType, nullptr);
        if (fresh)
            it->second = t.rule(n.opType);
        // Placement treats a custom-domain op as unknown whatever its name.
        const OpRule* rule = n.domain.empty() ? it->second : nullptr;
        // An Einsum the toolchain lowers is placed as what it becomes (a MatMul, Mul, Transpose or
        // ReduceSum).
        if (rule && n.opType == "Einsum") {
            const EinsumLowering low = lowerEinsum(g, n);
            if (const OpRule* lowered =
                    low.kind != EinsumLowering::Kind::None ? t.rule(low.loweredOp()) : nullptr)
                rule = lowered;
        }
        o.rule[i] = rule;
        // The G4.2 layout is decided by the op type alone (a custom-domain Conv still writes NCHW).
        o.alignsConv[i] = it->second && it->second->align == "conv";
        o.ruleText[i] = rule ? textOf.at(rule) : 0;
        o.readsGroups[i] = o.kind[i] == OpKind::Conv || o.kind[i] == OpKind::ConvTranspose ||
                           (rule && rule->opClass == OpClass::Conv);
        if (rule) {
            const OpClass k = rule->opClass;
            o.keepsLayout[i] = k == OpClass::Elementwise || k == OpClass::Lut || k == OpClass::Data ||
                               k == OpClass::Folded || k == OpClass::Qdq;
        }
        o.headPattern[i] = -1;
        for (size_t p = 0; p < t.fusionPatterns.size(); ++p) {
            const auto& pattern = t.fusionPatterns[p];
            if (std::find(pattern.head.begin(), pattern.head.end(), n.opType) != pattern.head.end())
                o.headPattern[i] = static_cast<int16_t>(p);
            for (size_t s = 0; o.stageBits && s < pattern.then.size(); ++s)
                if (std::find(pattern.then[s].begin(), pattern.then[s].end(), n.opType) !=
                    pattern.then[s].end())
                    o.stageMask[i] |= 1u << (8 * p + s);
        }
    }
    o.flags.resize(tensors);
    o.producer.resize(tensors);
    o.weight.assign(tensors, TensorId{});
    o.constant.assign(tensors, 0);
    o.constantParams = constantNodeParameters(g);
    std::vector<uint8_t> constantParam(tensors, 0);
    for (TensorId t : o.constantParams)
        constantParam[t.value] = 1;
    for (const auto& tensor : g.tensors) {
        const uint32_t i = tensor.id.value;
        o.flags[i] = (tensor.isInitializer ? kInitializer : 0) | (tensor.isGraphInput ? kGraphInput : 0) |
                     (tensor.isGraphOutput ? kGraphOutput : 0);
        o.producer[i] = tensor.producer;
        if (tensor.isInitializer) {
            o.constant[i] = 1;
            o.weight[i] = tensor.id;
        }
    }
    // Constants by structure, in topological order: a Constant node, or a deterministic op over constants.
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        if (!deterministic(n))
            continue;
        bool anyInput = false, allConstant = true;
        for (TensorId in : n.inputs)
            if (in.valid()) {
                anyInput = true;
                allConstant = allConstant && o.constant[in.value];
            }
        if (!(n.opType == "Constant" || (anyInput && allConstant)))
            continue;
        // Which constants are weights (data a node loads) rather than an op's parameters (a Reshape's shape,
        // Clip's bounds, Resize's scales: compile-time, no bytes): initializers (as they always were); a
        // Constant node's output that holds a parameter, or any too big to be kept as a value; views of a
        // weight; and a computation over weights too big to be folded (anchors, a weight's reshape).
        const TensorId in0 = n.inputs.empty() ? TensorId{} : n.inputs[0];
        bool overWeights = false;
        for (TensorId in : n.inputs)
            overWeights = overWeights || (in.valid() && o.weight[in.value].valid());
        for (TensorId out : n.outputs) {
            if (!out.valid())
                continue;
            o.constant[out.value] = 1;
            const bool unfolded = g.tensor(out).value == nullptr;
            if (n.opType == "Constant")
                o.weight[out.value] = constantParam[out.value] || unfolded ? out : TensorId{};
            else if (weightView(n))
                o.weight[out.value] = in0.valid() ? o.weight[in0.value] : TensorId{};
            else if (overWeights && unfolded)
                o.weight[out.value] = out;
        }
    }
    flatten(
        tensors, [&](size_t i) -> const std::vector<NodeId>& { return g.tensors[i].consumers; },
        o.consumerStart, o.consumerList);
    flatten(
        nodes, [&](size_t i) -> const std::vector<TensorId>& { return g.nodes[i].inputs; }, o.inputStart,
        o.inputList);
    flatten(
        nodes, [&](size_t i) -> const std::vector<TensorId>& { return g.nodes[i].outputs; }, o.outputStart,
        o.outputList);
    return table;
}

AnalysisIndex::AnalysisIndex(const Graph& g, const OpTable& o)
    : table(&o)
    , compileTime(g.nodes.size())
    , groups(g.nodes.size(), 1)
    , conv(g.nodes.size())
    , onBpu(g.nodes.size())
    , placement(g.nodes.size())
    , qdqMember(g.nodes.size())
    , elements(g.tensors.size())
    , fullyKnown(g.tensors.size())
    , hasValue(g.tensors.size())
    , rank(g.tensors.size())
    , dtypeBytes(g.tensors.size())
    , dtype(g.tensors.size())
    , runtimeConsumers(g.tensors.size())
    , alias(g.tensors.size()) {
    for (const auto& t : g.tensors)
        refreshTensor(t);
    for (const auto& n : g.nodes)
        refreshNode(g, n);
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        countRuntimeConsumers(TensorId{static_cast<uint32_t>(i)});
        alias[i] = TensorId{static_cast<uint32_t>(i)};
    }
}

void AnalysisIndex::refresh(const Graph& g, const std::vector<NodeId>& dirty) {
    for (NodeId id : dirty) {
        for (TensorId t : table->inputs(id))
            if (t.valid())
                refreshTensor(g.tensor(t));
        for (TensorId t : table->outputs(id))
            if (t.valid())
                refreshTensor(g.tensor(t));
    }
    for (NodeId id : dirty)
        refreshNode(g, g.node(id));
    // A count changes only where a consumer's compile-time status did: a dirty node's inputs.
    for (NodeId id : dirty)
        for (TensorId t : table->inputs(id))
            if (t.valid())
                countRuntimeConsumers(t);
}

void AnalysisIndex::refreshTensor(const Tensor& t) {
    const uint32_t i = t.id.value;
    // fullyKnown() and elements() in one walk over the dims.
    bool known = t.shape.rankKnown, overflow = false;
    int64_t p = 1;
    for (int64_t d : t.shape.dims) {
        if (d < 0) {
            known = false;
            break;
        }
        overflow |= __builtin_mul_overflow(p, d, &p);
    }
    fullyKnown[i] = known;
    elements[i] = known && !overflow ? p : -1;
    hasValue[i] = t.value != nullptr || table->constant[i];
    rank[i] = static_cast<uint8_t>(std::min<size_t>(t.shape.rank(), 255));
    dtypeBytes[i] = static_cast<uint8_t>(bytesPerElement(t.dtype));
    dtype[i] = t.dtype;
}

void AnalysisIndex::refreshNode(const Graph& g, const Node& n) {
    // isCompileTime(): every valid output has a known value, and there is one.
    bool any = false, all = true;
    for (TensorId out : table->outputs(n.id))
        if (out.valid()) {
            any = true;
            all = all && hasValue[out.value];
        }
    compileTime[n.id.value] = any && all;
    groups[n.id.value] = table->readsGroups[n.id.value] ? static_cast<int32_t>(convGroups(n)) : 1;
    ConvShape& cs = conv[n.id.value];
    cs = {};
    const OpKind k = table->kind[n.id.value];
    if ((k == OpKind::Conv || k == OpKind::ConvTranspose) && n.inputs.size() > 1 && n.inputs[1].valid() &&
        n.inputs[0].valid()) {
        const TensorShape &w = g.tensor(n.inputs[1]).shape, &x = g.tensor(n.inputs[0]).shape;
        cs.known = w.fullyKnown() && x.fullyKnown() && w.rank() >= 3 && x.rank() >= 3;
        if (cs.known) {
            for (size_t i = 2; i < w.rank(); ++i)
                cs.taps *= w.dims[i];
            cs.weightDim1 = w.dims[1];
            cs.inputChannels = x.dims[1];
        }
    }
}

void AnalysisIndex::countRuntimeConsumers(TensorId t) {
    int count = 0;
    for (NodeId c : table->consumers(t))
        count += !compileTime[c.value];
    runtimeConsumers[t.value] = count;
}

void AnalysisIndex::fillAliases(const Graph& g, const AnalysisResult& r) {
    // aliasRoot() for every tensor at once: in topological order a folded Q/DQ's output (or a fake-quant
    // member's: the Clip between them) takes its input's root, which is already known.
    for (size_t i = 0; i < alias.size(); ++i)
        alias[i] = TensorId{static_cast<uint32_t>(i)};
    for (NodeId id : g.topoOrder) {
        const OpKind k = table->kind[id.value];
        if ((k != OpKind::Quantize && k != OpKind::Dequantize && !qdqMember[id.value]) ||
            r.nodes[id.value].placement != Placement::Folded)
            continue;
        const auto in = table->inputs(id);
        if (in.empty() || !in[0].valid() || table->weight[in[0].value].valid())
            continue;
        const TensorId root = alias[in[0].value];
        for (TensorId o : table->outputs(id))
            if (o.valid())
                alias[o.value] = root;
    }
}

void AnalysisIndex::fillPlacements(const AnalysisResult& r) {
    for (size_t i = 0; i < placement.size(); ++i) {
        placement[i] = r.nodes[i].placement;
        onBpu[i] = onBpuGraph(r.nodes[i]);
    }
}

} // namespace bpu
