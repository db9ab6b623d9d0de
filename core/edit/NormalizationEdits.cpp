// SPDX-License-Identifier: MIT
#include "NormalizationEdits.h"

#include "EditContext.h"
#include "EditError.h"
#include "EditJson.h"
#include "Session.h"

#include "core/analysis/InputNormalization.h"
#include "core/deploy/DeploySettings.h"
#include "core/model/GraphRewrite.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace bpu {

DeployNormValues deployNormValues(const std::vector<double>& mean, const std::vector<double>& scale) {
    DeployNormValues v;
    v.fromUnitRange = std::all_of(mean.begin(), mean.end(), [](double m) { return std::abs(m) <= 1.0; });
    const double k = v.fromUnitRange ? 255.0 : 1.0;
    for (double m : mean)
        v.mean.push_back(m * k);
    for (double s : scale)
        v.scale.push_back(s / k);
    return v;
}

EditPtr MoveInputNormalizationEdit::fromJson(const nlohmann::json& j) {
    return std::make_shared<MoveInputNormalizationEdit>(editjson::str(j, "input"));
}

void MoveInputNormalizationEdit::change(EditContext& ctx) const {
    const Graph& g = ctx.graph();
    const TensorId in = g.findTensor(input_);
    if (!in.valid() || !g.tensor(in).isGraphInput)
        throw EditError("no model input named '" + input_ + "'");
    const auto norms = InputNormalization::find(g);
    const auto norm =
        std::find_if(norms.begin(), norms.end(), [&](const InputNormalization& n) { return n.input == in; });
    if (norm == norms.end())
        throw EditError("input '" + input_ +
                        "' has no normalisation in the graph (Sub/Div or Mul/Add by per-channel or scalar "
                        "constants straight on the image)");
    if (norm->mean.empty())
        throw EditError("the normalisation on '" + input_ +
                        "' reads constants whose values are not in the file: there is no mean_value / "
                        "scale_value to give the deployment");
    const ResolvedInput ri = resolveInput(ctx.options().deploy, g, input_);
    if (!isImageType(ri.type))
        throw EditError("input '" + input_ + "' is a " + inputRuntimeTypeName(ri.type) +
                        " in this deployment: hb_compile's norm_type applies to image inputs (input_type_rt "
                        "nv12, rgb, bgr, yuv444, gray)");
    GraphRewrite rw;
    rw.remove = norm->nodes;
    rw.rewire.emplace_back(g.tensor(norm->output).name, input_);
    Graph out;
    try {
        out = rw.apply(g);
    } catch (const std::invalid_argument& e) {
        throw EditError(std::string("move_input_normalization: ") + e.what());
    }
    const DeployNormValues values = deployNormValues(norm->mean, norm->scale);
    InputDeploy d;
    d.name = input_;
    d.type = ri.type;
    d.norm = NormType::DataMeanAndScale;
    d.mean = values.mean;
    d.scale = values.scale;
    auto& inputs = ctx.mutableOptions().deploy.inputs;
    const auto at =
        std::find_if(inputs.begin(), inputs.end(), [&](const InputDeploy& x) { return x.name == input_; });
    if (at != inputs.end())
        *at = std::move(d);
    else
        inputs.push_back(std::move(d));
    ctx.replaceGraph(std::move(out));
}

} // namespace bpu
