// SPDX-License-Identifier: MIT
// G1.2: which unit runs each node, and why.
#include "Passes.h"
#include "QdqAnnotations.h"
#include "core/model/EinsumEquation.h"

#include <algorithm>

namespace bpu {

namespace {

bool isQ(const Node& n) {
    return n.opType == "QuantizeLinear";
}
bool isDQ(const Node& n) {
    return n.opType == "DequantizeLinear";
}

bool allOutputsConstant(const Graph& g, const Node& n) {
    bool any = false;
    for (TensorId o : n.outputs) {
        if (!o.valid())
            continue;
        if (!g.tensor(o).value)
            return false;
        any = true;
    }
    return any;
}

// Feature maps on the BPU are quantized floats; integer index/shape tensors computed at run time are not.
std::optional<std::string> unsupportedDtype(const Graph& g, const AnalysisIndex& ix, NodeId n) {
    auto bad = [](DataType t) {
        return t == DataType::Int64 || t == DataType::Int32 || t == DataType::Bool || t == DataType::String ||
               t == DataType::Double || t == DataType::UInt64 || t == DataType::UInt32;
    };
    for (TensorId id : ix.ops().inputs(n)) {
        if (!id.valid() || ix.ops().initializer(id) || ix.hasValue[id.value])
            continue; // compile-time constants (indices, shapes) are fine
        if (!bad(ix.dtype[id.value]))
            continue;
        const Tensor& t = g.tensor(id);
        if (bad(t.dtype))
            return "input '" + t.name + "' is " + std::string(dataTypeName(t.dtype)) +
                   " at run time; the BPU computes int8/int16 feature maps";
    }
    return std::nullopt;
}

std::optional<std::string> reduceViolation(const Graph& g, const Node& n, const OpRule& rule) {
    if (rule.maxReduceAxis <= 0 || n.inputs.empty() || !n.inputs[0].valid())
        return std::nullopt;
    const TensorShape& s = g.tensor(n.inputs[0]).shape;
    if (!s.fullyKnown())
        return std::nullopt;
    std::vector<int64_t> axes;
    if (auto a = n.attrInts("axes"))
        axes = *a;
    else if (auto a1 = n.attrInt("axis"))
        axes = {*a1};
    else if (n.inputs.size() > 1 && n.inputs[1].valid() && g.tensor(n.inputs[1]).value)
        axes = g.tensor(n.inputs[1]).value->ints;
    else
        for (size_t i = 0; i < s.rank(); ++i)
            axes.push_back(static_cast<int64_t>(i));
    int64_t count = 1;
    for (int64_t ax : axes) {
        if (ax < 0)
            ax += static_cast<int64_t>(s.rank());
        if (ax < 0 || ax >= static_cast<int64_t>(s.rank()))
            continue;
        int64_t extent = s.dims[static_cast<size_t>(ax)];
        if (extent > rule.maxReduceAxis)
            return "reduced axis " + std::to_string(ax) + " has " + std::to_string(extent) +
                   " elements (limit " + std::to_string(rule.maxReduceAxis) + ")";
        count *= extent;
    }
    if (count > rule.maxReduceAxis)
        return "reduces " + std::to_string(count) + " elements (limit " + std::to_string(rule.maxReduceAxis) +
               ")";
    return std::nullopt;
}

} // namespace

void runPlacement(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    const OpTable& ops = c.ix->ops();
    auto isQ = [&](NodeId id) {
        return ops.kind[id.value] == OpKind::Quantize;
    };
    auto isDQ = [&](NodeId id) {
        return ops.kind[id.value] == OpKind::Dequantize;
    };
    // The DequantizeLinear that writes `t`, if one does.
    auto dqOf = [&](TensorId t) {
        NodeId p = t.valid() ? ops.producer[t.value] : NodeId{};
        return p.valid() && isDQ(p) ? p : NodeId{};
    };
    // Assigned field by field so a re-analysis reuses the records (a reason is shared text: SharedText.h).
    r.nodes.resize(g.nodes.size());
    for (auto& a : r.nodes) {
        a.placement = Placement::BPU;
        a.placementReason.clear();
        a.placementOverridden = false;
        a.precision = Precision::Int8;
        a.segment = -1;
        a.fusionGroup = GroupId{};
        a.macs = a.paddedMacs = a.ops = 0;
        a.inputBytes = a.outputBytes = a.weightBytes = a.ddrBytes = a.ddrStoreBytes = 0;
        a.computeUs = a.memoryUs = a.intensity = 0;
        a.bound = Bound::None;
        a.assumedFree = false;
        a.removedByDeploy = false;
    }

    // A QDQ-format model has activation DQ nodes fed by Q nodes (pairs around the quantized ops, possibly
    // with an integer Clip between them); scales carry across pooling and layout ops.
    const bool anyDQ = std::find(ops.kind.begin(), ops.kind.end(), OpKind::Dequantize) != ops.kind.end();
    const QdqAnnotations qa = QdqAnnotations::find(g, *c.ix);
    r.qdqFormat = qa.qdqFormat;
    c.ix->qdqMember = qa.member;

    // The overridden nodes by id, one name lookup per override: a what-if edit at 100k nodes must not compare
    // every node's name with the overrides' (a map lookup per node was a tenth of the pass).
    std::vector<const Placement*> overrideOf;
    if (!c.options.placementOverrides.empty()) {
        overrideOf.assign(g.nodes.size(), nullptr);
        for (const auto& [name, p] : c.options.placementOverrides)
            if (const NodeId id = g.findNode(name); id.valid())
                overrideOf[id.value] = &p;
    }
    // Phase 1: everything but Q/DQ, whose placement depends on their neighbours.
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        NodeAnalysis& a = r.nodes[id.value];
        const OpRule* rule = ops.rule[id.value];
        a.opClass = rule ? rule->opClass : OpClass::Unknown;
        if (!overrideOf.empty()) {
            if (const Placement* p = overrideOf[id.value]) {
                a.placement = *p;
                a.placementOverridden = true;
                a.placementReason = "set by the user (what-if override)";
                continue;
            }
        }
        if (isQ(id) || isDQ(id) || qa.member[id.value])
            continue;
        auto place = [&a](Placement p, SharedText why) {
            a.placement = p;
            a.placementReason = std::move(why);
        };
        if (!rule && !n.domain.empty()) { // (a custom-domain op never has a row)
            place(Placement::CPU, "custom domain '" + n.domain + "': not in the operator table");
            ++r.summary.unknownOps;
            r.diagnostics.push_back(
                {DiagSeverity::Warning, DiagCode::UnknownOperator, g.path,
                 "node '" + n.name + "' (" + n.domain + "." + n.opType +
                     ") is not in the operator table; placed on the CPU - override it if the BPU runs it"});
            continue;
        }
        if (c.ix->compileTime[id.value]) {
            place(Placement::Folded, "constant-folded at compile time (all outputs known)");
            continue;
        }
        if (!rule) {
            place(Placement::CPU, "not in the operator table");
            ++r.summary.unknownOps;
            r.diagnostics.push_back(
                {DiagSeverity::Warning, DiagCode::UnknownOperator, g.path,
                 "node '" + n.name + "' (" + n.opType +
                     ") is not in the operator table; placed on the CPU - override it if the BPU runs it"});
            continue;
        }
        const OpTable::RuleText& text = ops.texts[ops.ruleText[id.value]];
        if (ops.kind[id.value] == OpKind::Einsum) {
            // Placed as what it lowers to (OpTable::build picked that row), or on the CPU saying why not.
            const EinsumLowering low = lowerEinsum(g, n);
            if (low.kind == EinsumLowering::Kind::None) {
                place(Placement::CPU,
                      text.cpu.str() + ": '" + low.equation + "' cannot be lowered: " + low.why);
                continue;
            }
            if (rule->placement == Placement::BPU) {
                bool dynamic = false;
                for (TensorId o : ops.outputs(id))
                    dynamic |= o.valid() && !c.ix->known(o);
                if (!dynamic && !unsupportedDtype(g, *c.ix, id)) {
                    place(Placement::BPU, "Einsum '" + low.equation + "' lowered to " + low.loweredOp() +
                                              ": " + text.bpu.str());
                    continue;
                }
            }
        }
        if (rule->placement == Placement::CPU) {
            place(Placement::CPU, text.cpu);
            continue;
        }
        if (rule->placement == Placement::Folded) {
            place(Placement::Folded, text.folded);
            continue;
        }
        bool dynamic = false;
        for (TensorId o : ops.outputs(id))
            dynamic |= o.valid() && !c.ix->known(o);
        if (dynamic) {
            place(Placement::CPU, "dynamic or unknown output shape (only the batch dim may be dynamic; set "
                                  "--input-shape)");
            continue;
        }
        if (auto why = unsupportedDtype(g, *c.ix, id)) {
            place(Placement::CPU, "dtype: " + *why);
            continue;
        }
        if (auto why = reduceViolation(g, n, *rule)) {
            place(Placement::CPU, "constraint: " + *why);
            continue;
        }
        if (r.qdqFormat && (rule->opClass == OpClass::Conv || rule->opClass == OpClass::Matmul) &&
            !n.inputs.empty() && n.inputs[0].valid() && !qa.quantized[n.inputs[0].value]) {
            // A true float island: no fake-quant reaches it from its input (through scale-passing ops) nor
            // from its output. Quantized from either side, the toolchain quantizes it.
            bool annotatedBelow = false;
            for (TensorId o : ops.outputs(id))
                annotatedBelow |= o.valid() && qa.annotated[o.value];
            if (!annotatedBelow) {
                const Tensor& in = g.tensor(n.inputs[0]);
                const NodeId from = in.producer;
                place(Placement::CPU, "float kept: fake-quant missing in the QAT model - no QuantizeLinear/"
                                      "DequantizeLinear reaches its input '" +
                                          in.name + "'" +
                                          (from.valid() ? " (from '" + g.node(from).name + "')" : "") +
                                          " or its output, so the toolchain keeps it in float on the CPU");
                a.precision = Precision::Float;
                continue;
            }
        }
        place(Placement::BPU, text.bpu);
    }

    // Phase 2: Q/DQ. Inner pairs are annotations the toolchain folds; boundary ones cost a pass.
    auto onBpu = [&](NodeId id) {
        return r.nodes[id.value].placement != Placement::CPU;
    };
    // A Q's consumers seen through the fake-quant's members (the Clip torch writes between Q and DQ).
    std::vector<NodeId> beyond;
    auto consumersThroughMembers = [&](const Node& q) {
        beyond.clear();
        std::vector<TensorId> todo(q.outputs.begin(), q.outputs.end());
        for (size_t guard = 0; !todo.empty() && guard < g.nodes.size(); ++guard) {
            const TensorId t = todo.back();
            todo.pop_back();
            if (!t.valid())
                continue;
            for (NodeId cns : g.tensor(t).consumers) {
                if (qa.member[cns.value])
                    todo.insert(todo.end(), g.node(cns).outputs.begin(), g.node(cns).outputs.end());
                else
                    beyond.push_back(cns);
            }
        }
        return beyond;
    };
    for (NodeId id : g.topoOrder) {
        if (!(isQ(id) || isDQ(id)) || r.nodes[id.value].placementOverridden)
            continue;
        const Node& n = g.node(id);
        NodeAnalysis& a = r.nodes[id.value];
        TensorId in = n.inputs.empty() ? TensorId{} : n.inputs[0];
        if (in.valid() && c.ix->hasValue[in.value]) {
            // A weight (an initializer, a Constant node, or a float weight's QuantizeLinear): a compile-time
            // constant, no pass at run time.
            a.placement = Placement::Folded;
            a.placementReason =
                "weight (de)quantization folded into the consuming op (a compile-time constant)";
            continue;
        }
        bool boundary = false;
        std::string why;
        if (isQ(id)) {
            NodeId p = in.valid() ? g.tensor(in).producer : NodeId{};
            if (!p.valid()) {
                boundary = true;
                why = "quantizes the model input";
            } else if (!onBpu(p)) {
                boundary = true;
                why = "quantizes the output of CPU node '" + g.node(p).name + "'";
            }
            for (NodeId cns : consumersThroughMembers(n))
                if (!isDQ(cns) && !onBpu(cns)) {
                    boundary = true;
                    why = "feeds CPU node '" + g.node(cns).name + "'";
                }
        } else {
            for (TensorId o : n.outputs) {
                if (!o.valid())
                    continue;
                if (g.tensor(o).isGraphOutput) {
                    boundary = true;
                    why = "dequantizes a model output";
                }
                for (NodeId cns : g.tensor(o).consumers)
                    if (!onBpu(cns) && !isQ(cns)) {
                        boundary = true;
                        why = "dequantizes for CPU node '" + g.node(cns).name + "'";
                    }
            }
        }
        if (boundary) {
            a.placement = Placement::CPU;
            a.placementReason = "boundary " + std::string(isQ(id) ? "quantize" : "dequantize") + ": " + why +
                                " - a full pass over the tensor on the CPU (G1.1)";
        } else {
            a.placement = Placement::Folded;
            a.placementReason =
                "quantization annotation folded into the BPU ops (scale kept as the op's precision)";
        }
    }
    // Fake-quant members (the integer Clip between a Q and its DQ) go with their annotation: the clamp is
    // part of the quantize, folded into the BPU op or into the boundary pass on the CPU.
    for (NodeId id : g.topoOrder) {
        if (!qa.member[id.value] || r.nodes[id.value].placementOverridden)
            continue;
        NodeAnalysis& a = r.nodes[id.value];
        a.placement = Placement::Folded;
        a.placementReason = "integer range clamp inside a fake-quant (QuantizeLinear -> " +
                            g.node(id).opType +
                            " -> DequantizeLinear): part of the quantization, folded with it";
    }

    // Precision: int16 where an int16 Q/DQ pair annotates the op, float on the CPU, else the default.
    for (size_t i = 0; i < r.nodes.size(); ++i) {
        NodeAnalysis& a = r.nodes[i];
        if (a.placement == Placement::CPU) {
            a.precision = Precision::Float;
            continue;
        }
        a.precision = c.options.defaultPrecision;
        if (!anyDQ)
            continue; // no DequantizeLinear anywhere: nothing annotates a precision
        for (TensorId in : ops.inputs(NodeId{static_cast<uint32_t>(i)})) {
            const NodeId dq = dqOf(in);
            if (!dq.valid())
                continue;
            const auto dqIn = ops.inputs(dq);
            if (!dqIn.empty() && dqIn[0].valid()) {
                DataType t = g.tensor(dqIn[0]).dtype;
                if (t == DataType::Int16 || t == DataType::UInt16)
                    a.precision = Precision::Int16;
            }
        }
    }
}

int64_t bytesAtPrecision(Precision p, int64_t dtypeBytes) {
    switch (p) {
    case Precision::Int8:
        return 1;
    case Precision::Int16:
        return 2;
    case Precision::Float:
        return dtypeBytes > 0 ? dtypeBytes : 4;
    }
    return 1;
}

int64_t convGroups(const Node& n) {
    return std::max<int64_t>(1, n.attrIntOr("group", 1));
}

bool isCompileTime(const Graph& g, const Node& n) {
    return allOutputsConstant(g, n);
}

int runtimeConsumers(const Graph& g, const Tensor& t) {
    int count = 0;
    for (NodeId cns : t.consumers)
        count += !isCompileTime(g, g.node(cns));
    return count;
}

bool onBpuGraph(const NodeAnalysis& a) {
    return a.placement == Placement::BPU || (a.placement == Placement::Folded && a.segment >= 0);
}

TensorId weightSource(const Graph& g, TensorId t) {
    // Through Identity (torch shares equal initializers that way: mobilenet_v2's conv biases), one
    // DequantizeLinear (a quantized weight in a QDQ model) and one QuantizeLinear (a QAT export's float
    // weight -> Q -> DQ), in any order; a Constant node's output is a weight as an initializer is.
    bool dequantized = false, quantized = false;
    for (size_t hops = 0; t.valid() && hops < g.nodes.size(); ++hops) {
        const Tensor& tensor = g.tensor(t);
        if (tensor.isInitializer)
            return t;
        if (!tensor.producer.valid())
            return {};
        const Node& p = g.node(tensor.producer);
        if (p.opType == "Constant" && p.domain.empty())
            return t;
        const bool dq = isDQ(p) && !dequantized, q = isQ(p) && !quantized;
        if (!(dq || q || p.opType == "Identity") || p.inputs.empty())
            return {};
        dequantized |= dq;
        quantized |= q;
        t = p.inputs[0];
    }
    return {};
}

TensorId aliasRoot(const Graph& g, const AnalysisResult& r, TensorId t) {
    for (size_t guard = 0; t.valid() && guard < g.nodes.size(); ++guard) {
        const NodeId p = g.tensor(t).producer;
        if (!p.valid() || r.nodes[p.value].placement != Placement::Folded)
            break;
        const Node& n = g.node(p);
        // A fake-quant member (the integer Clip between Q and DQ) aliases as the Q/DQ do.
        const bool member = (n.opType == "Clip" || n.opType == "Identity") && !n.inputs.empty() &&
                            n.inputs[0].valid() && g.tensor(n.inputs[0]).producer.valid() &&
                            isQ(g.node(g.tensor(n.inputs[0]).producer));
        if (!(isQ(n) || isDQ(n) || member) || n.inputs.empty() || !n.inputs[0].valid() ||
            weightSource(g, n.inputs[0]).valid())
            break;
        t = n.inputs[0];
    }
    return t;
}

} // namespace bpu
