// SPDX-License-Identifier: MIT
#include "NodeMetrics.h"

#include "ConstantParams.h"
#include "core/model/EinsumEquation.h"
#include "core/util/CheckedMath.h"

#include <algorithm>
#include <set>
#include <unordered_set>

namespace bpu {

namespace {

int64_t prod(const std::vector<int64_t>& v, size_t from = 0, size_t to = SIZE_MAX) {
    int64_t p = 1;
    for (size_t i = from; i < std::min(to, v.size()); ++i)
        p = satMul(p, std::max<int64_t>(v[i], 0));
    return p;
}

const TensorShape* shapeOf(const Graph& g, const Node& n, size_t inputIndex) {
    if (inputIndex >= n.inputs.size() || !n.inputs[inputIndex].valid())
        return nullptr;
    return &g.tensor(n.inputs[inputIndex]).shape;
}

const TensorShape* outShape(const Graph& g, const Node& n, size_t i = 0) {
    if (i >= n.outputs.size() || !n.outputs[i].valid())
        return nullptr;
    return &g.tensor(n.outputs[i]).shape;
}

// Per-element op weights of non-MAC operators: elementwise and LUT = 1, normalisation and softmax a few.
const std::set<std::string>& unaryOneOp() {
    static const std::set<std::string> s{"Relu",
                                         "LeakyRelu",
                                         "PRelu",
                                         "Sigmoid",
                                         "Tanh",
                                         "Clip",
                                         "HardSigmoid",
                                         "HardSwish",
                                         "Elu",
                                         "Selu",
                                         "Celu",
                                         "Gelu",
                                         "Mish",
                                         "Softplus",
                                         "Softsign",
                                         "Exp",
                                         "Log",
                                         "Sqrt",
                                         "Reciprocal",
                                         "Abs",
                                         "Neg",
                                         "Floor",
                                         "Ceil",
                                         "Round",
                                         "Sign",
                                         "Sin",
                                         "Cos",
                                         "Tan",
                                         "Asin",
                                         "Acos",
                                         "Atan",
                                         "Sinh",
                                         "Cosh",
                                         "Asinh",
                                         "Acosh",
                                         "Atanh",
                                         "Erf",
                                         "Not",
                                         "ThresholdedRelu",
                                         "Cast",
                                         "QuantizeLinear",
                                         "DequantizeLinear",
                                         "Add",
                                         "Sub",
                                         "Mul",
                                         "Div",
                                         "Pow",
                                         "Max",
                                         "Min",
                                         "Sum",
                                         "Mean",
                                         "Equal",
                                         "Less",
                                         "Greater",
                                         "And",
                                         "Or",
                                         "Xor",
                                         "Where",
                                         "Mod",
                                         "BitShift",
                                         "LessOrEqual",
                                         "GreaterOrEqual",
                                         "Resize",
                                         "Upsample"};
    return s;
}

// A constant the node reads is a parameter, not a feature map: an initializer or a Constant node's output
// (Clip's min/max scalars), also when reached through Identity nodes (torch shares equal initializers that
// way).
bool isParameter(const Graph& g, TensorId id) {
    for (size_t hops = 0; hops < g.nodes.size(); ++hops) {
        const Tensor& t = g.tensor(id);
        if (t.isInitializer)
            return true;
        if (!t.producer.valid())
            return false;
        const Node& p = g.node(t.producer);
        if (p.opType == "Constant" && p.domain.empty())
            return true;
        if (p.opType != "Identity" || p.inputs.empty() || !p.inputs[0].valid())
            return false;
        id = p.inputs[0];
    }
    return false;
}

} // namespace

NodeMetrics computeNodeMetrics(const Graph& g, const Node& n) {
    NodeMetrics m;
    for (TensorId in : n.inputs) {
        if (!in.valid())
            continue;
        const Tensor& t = g.tensor(in);
        auto e = t.shape.elements();
        auto b = t.bytes();
        if (!e)
            m.complete = false;
        if (isParameter(g, in)) {
            m.params = satAdd(m.params, e.value_or(0));
            m.weightBytes = satAdd(m.weightBytes, b.value_or(0));
        } else {
            m.inputElements = satAdd(m.inputElements, e.value_or(0));
            m.inputBytes = satAdd(m.inputBytes, b.value_or(0));
        }
    }
    for (TensorId out : n.outputs) {
        if (!out.valid())
            continue;
        const Tensor& t = g.tensor(out);
        auto e = t.shape.elements();
        if (!e)
            m.complete = false;
        m.outputElements = satAdd(m.outputElements, e.value_or(0));
        m.outputBytes = satAdd(m.outputBytes, t.bytes().value_or(0));
    }

    const std::string& op = n.opType;
    const TensorShape* y = outShape(g, n);
    const TensorShape* x = shapeOf(g, n, 0);
    const TensorShape* w = shapeOf(g, n, 1);
    const int64_t outElems = y && y->fullyKnown() ? y->elements().value_or(0) : 0;

    if (op == "Conv" || op == "ConvInteger" || op == "QLinearConv") {
        // Weight is input 1 (Conv) or 3 (QLinearConv): [Cout, Cin/group, k...].
        const TensorShape* wk = op == "QLinearConv" ? shapeOf(g, n, 3) : w;
        if (wk && wk->fullyKnown() && y && y->fullyKnown() && wk->rank() >= 2) {
            // Each output element accumulates (Cin/group) x prod(kernel) products; dilation changes only
            // where they are taken from, and the output size already reflects padding/stride.
            m.macs = satMul(outElems, prod(wk->dims, 1));
        } else {
            m.complete = false;
        }
        bool hasBias = op == "Conv" ? n.inputs.size() > 2 && n.inputs[2].valid()
                                    : op == "QLinearConv" && n.inputs.size() > 8 && n.inputs[8].valid();
        if (hasBias)
            m.ops = satAdd(m.ops, outElems);
    } else if (op == "ConvTranspose") {
        // Weight [Cin, Cout/group, k...]: every input element scatters into Cout/group x prod(kernel)
        // outputs.
        if (w && w->fullyKnown() && x && x->fullyKnown() && w->rank() >= 2)
            m.macs = satMul(x->elements().value_or(0), prod(w->dims, 1));
        else
            m.complete = false;
        if (n.inputs.size() > 2 && n.inputs[2].valid())
            m.ops = satAdd(m.ops, outElems);
    } else if (op == "Gemm") {
        if (x && w && x->fullyKnown() && w->fullyKnown() && x->rank() == 2 && w->rank() == 2) {
            const int64_t k = n.attrIntOr("transA", 0) ? x->dims[0] : x->dims[1];
            m.macs = satMul(outElems, k);
            m.contraction = std::max<int64_t>(1, k);
            if (n.inputs.size() > 2 && n.inputs[2].valid())
                m.ops = satAdd(m.ops, outElems);
        } else {
            m.complete = false;
        }
    } else if (op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul") {
        const TensorShape* b = op == "QLinearMatMul" ? shapeOf(g, n, 3) : w;
        if (x && b && x->fullyKnown() && b->fullyKnown() && y && y->fullyKnown() && x->rank() >= 1) {
            // K is A's last dim; the output (with broadcast batch dims) has one element per M x N x batch.
            const int64_t k = x->dims.back();
            m.macs = satMul(outElems, k);
            m.contraction = std::max<int64_t>(1, k);
        } else {
            m.complete = false;
        }
    } else if (op == "MaxPool" || op == "AveragePool" || op == "LpPool") {
        if (auto ks = n.attrInts("kernel_shape"))
            m.ops = satMul(outElems, prod(*ks));
    } else if (op == "GlobalAveragePool" || op == "GlobalMaxPool" || op.rfind("Reduce", 0) == 0 ||
               op == "ArgMax" || op == "ArgMin") {
        m.ops = m.inputElements;
    } else if (op == "BatchNormalization" || op == "InstanceNormalization" || op == "LayerNormalization" ||
               op == "GroupNormalization" || op == "LpNormalization") {
        // scale and shift per element (+ mean/variance passes for the non-folded norms)
        m.ops = satMul(outElems, op == "BatchNormalization" ? 2 : 5);
    } else if (op == "Softmax" || op == "LogSoftmax") {
        m.ops = satMul(outElems, 3); // exp, sum, divide (max-subtraction ignored)
    } else if (unaryOneOp().count(op)) {
        m.ops = outElems;
    } else if (op == "Einsum") {
        // As what it lowers to: a MatMul's MACs (every index's extent multiplied), a Mul's product per output
        // element, a ReduceSum's add per input element; a permutation computes nothing.
        const EinsumLowering low = lowerEinsum(g, n);
        if (low.kind == EinsumLowering::Kind::MatMul) {
            m.macs = low.macs;
            m.contraction = std::max<int64_t>(1, low.contracted);
        } else if (low.kind == EinsumLowering::Kind::Mul)
            m.ops = outElems;
        else if (low.kind == EinsumLowering::Kind::Reduce || low.kind == EinsumLowering::Kind::None)
            m.ops = m.inputElements;
        if (low.kind == EinsumLowering::Kind::MatMul && low.macs == 0)
            m.complete = false;
    } else if (op == "GridSample") {
        // Each output element interpolates from its taps: 4 bilinear (ONNX 'linear'), 1 nearest, 16 bicubic.
        const std::string mode = n.attrString("mode").value_or("bilinear");
        const int64_t taps = mode == "nearest" ? 1 : mode == "bicubic" || mode == "cubic" ? 16 : 4;
        m.ops = outElems * taps;
    }
    for (int64_t v : {m.macs, m.ops, m.params, m.weightBytes, m.inputElements, m.inputBytes, m.outputElements,
                      m.outputBytes})
        if (v == kCountMax)
            m.saturated = true;
    if (m.saturated)
        m.complete = false;
    return m;
}

ModelMetrics totalsOf(const Graph& g, const std::vector<NodeMetrics>& perNode) {
    ModelMetrics t;
    for (const auto& n : g.nodes) {
        const NodeMetrics& m = perNode[n.id.value];
        t.macs = satAdd(t.macs, m.macs);
        t.ops = satAdd(t.ops, m.ops);
        t.activationBytes = satAdd(t.activationBytes, m.outputBytes);
        if (!m.complete)
            ++t.nodesIncomplete;
        if (m.saturated)
            ++t.nodesSaturated;
        ++t.opHistogram[n.domain.empty() ? n.opType : n.domain + "." + n.opType];
    }
    for (const auto& tensor : g.tensors)
        if (tensor.isInitializer) {
            t.params = satAdd(t.params, tensor.shape.elements().value_or(0));
            t.weightBytes = satAdd(t.weightBytes, tensor.bytes().value_or(0));
        }
    for (TensorId id : constantNodeParameters(g)) {
        const Tensor& tensor = g.tensor(id);
        t.paramsFromConstants += tensor.shape.elements().value_or(0);
        t.weightBytes += tensor.bytes().value_or(0);
        ++t.constantWeights;
    }
    t.params += t.paramsFromConstants;
    return t;
}

std::vector<NodeMetrics> computeAllMetrics(const Graph& g, ModelMetrics* totals) {
    std::vector<NodeMetrics> out(g.nodes.size());
    for (const auto& n : g.nodes)
        out[n.id.value] = computeNodeMetrics(g, n);
    if (totals)
        *totals = totalsOf(g, out);
    return out;
}

} // namespace bpu
