// SPDX-License-Identifier: MIT
#include "ActivationEdits.h"

#include "EditContext.h"
#include "EditError.h"
#include "EditJson.h"
#include "Session.h"
#include "core/model/DataType.h"
#include "core/model/GraphRewrite.h"

#include <optional>
#include <set>
#include <stdexcept>
#include <utility>

namespace bpu {

namespace {

// One-op activations a ReLU can stand in for (the quantizer maps them to a LUT; s100-facts.md).
const std::set<std::string> kOneOpActivations{"HardSwish", "Swish", "Silu", "Gelu",     "Mish",
                                              "Elu",       "Celu",  "Selu", "Softplus", "LeakyRelu"};

// Names the rewrite's shared ReLU6 bounds.
constexpr const char* kRelu6Min = "bpuscope_relu6_min";
constexpr const char* kRelu6Max = "bpuscope_relu6_max";

/// The activation `name` writes: the nodes it is made of and its input.
struct Matched {
    std::vector<NodeId> nodes;
    TensorId input;
};

/// The gate of x * gate(x) at `mul`: its Sigmoid / HardSigmoid node reading the Mul's other input, read by
/// the Mul alone; with x.
std::optional<std::pair<NodeId, TensorId>> gateOf(const Graph& g, const Node& mul) {
    if (mul.opType != "Mul" || mul.inputs.size() != 2 || !mul.inputs[0].valid() || !mul.inputs[1].valid())
        return std::nullopt;
    for (int k = 0; k < 2; ++k) {
        const TensorId x = mul.inputs[k], s = mul.inputs[1 - k];
        const NodeId sp = g.tensor(s).producer;
        if (!sp.valid())
            continue;
        const Node& sn = g.node(sp);
        if ((sn.opType == "Sigmoid" || sn.opType == "HardSigmoid") && !sn.inputs.empty() &&
            sn.inputs[0] == x && g.tensor(s).consumers.size() == 1)
            return std::make_pair(sp, x);
    }
    return std::nullopt;
}

Matched match(const Graph& g, const std::string& name) {
    const NodeId id = g.findNode(name);
    if (!id.valid())
        throw EditError("no node named '" + name + "'");
    const Node& n = g.node(id);
    if (n.outputs.size() != 1 || !n.outputs[0].valid())
        throw EditError("'" + name + "' does not write one tensor");
    if (const auto gate = gateOf(g, n))
        return {{gate->first, id}, gate->second};
    if (n.domain.empty() && isOneOpActivation(n.opType) && !n.inputs.empty() && n.inputs[0].valid())
        return {{id}, n.inputs[0]};
    throw EditError("'" + name + "' (" + n.opType +
                    ") is not an activation replace_activation rewrites: x * Sigmoid(x), x * HardSigmoid(x) "
                    "or a one-op activation such as HardSwish");
}

} // namespace

bool isOneOpActivation(const std::string& op) {
    return kOneOpActivations.count(op) > 0;
}

NodeId activationHead(const Graph& g, NodeId id) {
    if (!id.valid() || id.value >= g.nodes.size())
        return {};
    const Node& n = g.node(id);
    if (n.outputs.size() != 1 || !n.outputs[0].valid())
        return {};
    if (gateOf(g, n) || (n.domain.empty() && isOneOpActivation(n.opType) && !n.inputs.empty()))
        return id;
    // A gate selected: the Mul it feeds, when that Mul is the x * gate(x) of its input.
    if (n.opType == "Sigmoid" || n.opType == "HardSigmoid") {
        const auto& readers = g.tensor(n.outputs[0]).consumers;
        if (readers.size() == 1 && gateOf(g, g.node(readers[0])))
            return readers[0];
    }
    return {};
}

const char* activationTargetName(ReplaceActivationEdit::Target t) {
    return t == ReplaceActivationEdit::Target::Relu6 ? "relu6" : "relu";
}

EditPtr ReplaceActivationEdit::fromJson(const nlohmann::json& j) {
    const std::string to = editjson::str(j, "to");
    if (to != "relu" && to != "relu6")
        throw EditError("replace_activation: 'to' must be \"relu\" or \"relu6\", got \"" + to + "\"");
    std::vector<std::string> nodes = editjson::strings(j, "nodes");
    if (nodes.empty())
        throw EditError("replace_activation: 'nodes' names no node");
    return std::make_shared<ReplaceActivationEdit>(std::move(nodes),
                                                   to == "relu6" ? Target::Relu6 : Target::Relu);
}

nlohmann::json ReplaceActivationEdit::toJson() const {
    return {{"op", "replace_activation"}, {"nodes", nodes_}, {"to", activationTargetName(to_)}};
}

void ReplaceActivationEdit::change(EditContext& ctx) const {
    const Graph& g = ctx.session().graph();
    if (to_ == Target::Relu6 && g.defaultOpset() < 11)
        throw EditError(
            "relu6 is Clip(0, 6) with its bounds as inputs, which needs opset 11 or later (this model: " +
            std::to_string(g.defaultOpset()) + "); use relu");
    GraphRewrite rw;
    std::set<std::string> seen;
    for (const auto& name : nodes_) {
        if (!seen.insert(name).second)
            throw EditError("'" + name + "' is named twice");
        const Matched m = match(g, name);
        const Tensor& x = g.tensor(m.input);
        const Node& head = g.node(m.nodes.back());
        rw.remove.insert(rw.remove.end(), m.nodes.begin(), m.nodes.end());
        GraphRewrite::NewNode relu;
        relu.name = head.name + (to_ == Target::Relu6 ? "/relu6" : "/relu");
        relu.outputs = {g.tensor(head.outputs[0]).name};
        if (to_ == Target::Relu) {
            relu.opType = "Relu";
            relu.inputs = {x.name};
        } else {
            if (!isFloatType(x.dtype))
                throw EditError("'" + name + "' reads a " + std::string(dataTypeName(x.dtype)) +
                                " tensor: relu6 needs a float one");
            relu.opType = "Clip";
            relu.inputs = {x.name, kRelu6Min, kRelu6Max};
        }
        rw.add.push_back(std::move(relu));
    }
    if (to_ == Target::Relu6) {
        // Float bounds: Clip's min and max have its input's type (float32 here; a float16 model keeps float32
        // bounds, which only its numbers would notice, not the estimate).
        ConstValue lo, hi;
        lo.dtype = hi.dtype = DataType::Float;
        lo.floats = {0.0};
        hi.floats = {6.0};
        rw.constants = {{kRelu6Min, lo}, {kRelu6Max, hi}};
    }
    Graph out;
    try {
        out = rw.apply(g);
    } catch (const std::invalid_argument& e) {
        throw EditError(std::string("replace_activation: ") + e.what());
    }
    ctx.replaceGraph(std::move(out)); // a new structure: the operator table and every index are rebuilt
}

} // namespace bpu
