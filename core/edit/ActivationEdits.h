// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"

#include <string>
#include <vector>

namespace bpu {

/// replace_activation (issue 47): the activations written by `nodes` become ReLU or ReLU6, which the BPU
/// fuses into the conv before them. Each node named is the one writing the activation's output: the Mul
/// of x * Sigmoid(x) (SiLU) or x * HardSigmoid(x) (HardSwish written out), or a one-op activation
/// (HardSwish, Gelu, Mish, ...). The graph is rewritten (GraphRewrite): the activation's nodes go, one Relu
/// (or Clip(0, 6), opset 11 and later) takes their place. A change of the model: retrain or fine-tune.
class ReplaceActivationEdit : public Edit {
public:
    enum class Target { Relu, Relu6 };
    ReplaceActivationEdit(std::vector<std::string> nodes, Target to)
        : nodes_(std::move(nodes))
        , to_(to) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override;
    EditCosts costs() const override { return {EditCost::ChangesOutputs, EditCost::NeedsRetraining}; }

protected:
    void change(EditContext& ctx) const override;

private:
    std::vector<std::string> nodes_;
    Target to_;
};

/// Whether `op` is a one-op activation replace_activation rewrites (HardSwish, Swish, Gelu, Mish, ...).
bool isOneOpActivation(const std::string& op);
/// The node replace_activation names for an activation around `id`: `id` itself when it writes one (a
/// one-op activation, or the Mul of x * Sigmoid(x) / x * HardSigmoid(x)), the Mul a gating Sigmoid /
/// HardSigmoid feeds, or invalid.
NodeId activationHead(const Graph& g, NodeId id);

/// "relu" / "relu6".
const char* activationTargetName(ReplaceActivationEdit::Target t);

} // namespace bpu
