// SPDX-License-Identifier: MIT
#include "ConstantParams.h"

#include <cmath>
#include <string>
#include <unordered_set>

namespace bpu {

namespace {

bool isLayer(const std::string& op) {
    return op == "Conv" || op == "ConvTranspose" || op == "Gemm" || op == "MatMul" || op == "ConvInteger" ||
           op == "MatMulInteger" || op == "QLinearConv" || op == "QLinearMatMul";
}

// Ops a constant passes through and stays the same weight (a view, a (de)quantization, a dtype change).
bool isView(const std::string& op) {
    static const std::unordered_set<std::string> views{"Identity", "QuantizeLinear", "DequantizeLinear",
                                                       "Cast",     "Transpose",      "Reshape",
                                                       "Flatten",  "Squeeze",        "Unsqueeze"};
    return views.count(op) > 0;
}

enum class Use { None, Scale, Shift, Other };

// How `n` reads its input `i` if that input is a parameter there; `afterLayer`: a layer is upstream of n.
Use parameterUse(const Node& n, size_t i, bool afterLayer) {
    const std::string& op = n.opType;
    if (op == "Conv" || op == "ConvTranspose")
        return i == 1 ? Use::Other : i == 2 ? Use::Shift : Use::None;
    if (op == "Gemm")
        return i == 2 ? Use::Shift : Use::Other;
    if (op == "MatMul")
        return Use::Other;
    if (op == "BatchNormalization" || op == "InstanceNormalization" || op == "LayerNormalization" ||
        op == "GroupNormalization")
        return i == 1 ? Use::Scale : i == 2 ? Use::Shift : i > 2 ? Use::Other : Use::None;
    if (op == "LSTM" || op == "GRU" || op == "RNN")
        return i >= 1 ? Use::Other : Use::None;
    if (op == "PRelu")
        return i == 1 ? Use::Other : Use::None;
    if (!afterLayer)
        return Use::None;
    if (op == "Mul" || op == "Div")
        return Use::Scale;
    if (op == "Add" || op == "Sub")
        return Use::Shift;
    return Use::None;
}

// All elements known and equal to `v` (an identity scale or shift: no learned value).
bool knownUniform(const Tensor& t, double v) {
    if (!t.value || t.value->size() == 0)
        return false;
    for (size_t i = 0; i < t.value->size(); ++i)
        if (std::fabs(t.value->at(i) - v) > 0)
            return false;
    return true;
}

} // namespace

std::vector<TensorId> constantNodeParameters(const Graph& g) {
    std::vector<TensorId> out;
    bool anyConstant = false;
    for (const auto& n : g.nodes)
        anyConstant |= n.opType == "Constant" && n.domain.empty();
    if (!anyConstant)
        return out;

    // Constants by structure (as OpTable::constant) and run-time tensors a layer feeds (through data, not
    // through Shape/Size, which read only the static shape).
    std::vector<uint8_t> constant(g.tensors.size(), 0), afterLayer(g.tensors.size(), 0);
    std::vector<uint8_t> nodeAfterLayer(g.nodes.size(), 0);
    for (const auto& t : g.tensors)
        constant[t.id.value] = t.isInitializer;
    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        bool anyInput = false, allConstant = true, reached = isLayer(n.opType);
        for (TensorId in : n.inputs)
            if (in.valid()) {
                anyInput = true;
                allConstant = allConstant && constant[in.value];
                reached = reached || afterLayer[in.value];
            }
        const bool isConst =
            n.domain.empty() && n.subgraphCount == 0 && (n.opType == "Constant" || (anyInput && allConstant));
        nodeAfterLayer[id.value] = reached;
        for (TensorId o : n.outputs)
            if (o.valid()) {
                constant[o.value] = isConst;
                afterLayer[o.value] = !isConst && reached && n.opType != "Shape" && n.opType != "Size";
            }
    }

    std::vector<TensorId> stack;
    for (const auto& n : g.nodes) {
        if (n.opType != "Constant" || !n.domain.empty() || n.outputs.empty() || !n.outputs[0].valid())
            continue;
        const Tensor& t = g.tensor(n.outputs[0]);
        if (t.shape.elements().value_or(0) < 2)
            continue;
        bool parameter = false;
        stack.assign(1, t.id);
        for (size_t guard = 0; !stack.empty() && !parameter && guard < g.nodes.size(); ++guard) {
            const TensorId cur = stack.back();
            stack.pop_back();
            for (NodeId c : g.tensor(cur).consumers) {
                const Node& cn = g.node(c);
                bool viewOfConstant = isView(cn.opType) && !cn.inputs.empty() && cn.inputs[0] == cur;
                for (TensorId o : cn.outputs)
                    viewOfConstant = viewOfConstant && o.valid() && constant[o.value];
                if (viewOfConstant) {
                    for (TensorId o : cn.outputs)
                        stack.push_back(o);
                    continue;
                }
                bool runtime = false;
                for (TensorId o : cn.outputs)
                    runtime |= o.valid() && !constant[o.value];
                if (!runtime)
                    continue;
                for (size_t i = 0; i < cn.inputs.size() && !parameter; ++i) {
                    if (cn.inputs[i] != cur)
                        continue;
                    const Use use = parameterUse(cn, i, nodeAfterLayer[c.value] != 0);
                    parameter = use == Use::Other || (use == Use::Scale && !knownUniform(t, 1.0)) ||
                                (use == Use::Shift && !knownUniform(t, 0.0));
                }
            }
        }
        if (parameter)
            out.push_back(t.id);
    }
    return out;
}

} // namespace bpu
