// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"

#include <string>
#include <vector>

namespace bpu {

/// move_input_normalization (issue 48): the image normalisation written in the graph on `input` (Sub/Div or
/// Mul/Add by constants, InputNormalization.h) is taken out of the graph and given to the deployment
/// instead: the input's norm_type becomes data_mean_and_scale with the same arithmetic as mean_value /
/// scale_value, which hb_compile runs on the BPU as part of the input. The model computes the same; the
/// application feeds the image without normalising it. Needs the constants' values (else there is nothing
/// to write in the config) and an image input type in the deployment (norm_type applies to images).
class MoveInputNormalizationEdit : public Edit {
public:
    explicit MoveInputNormalizationEdit(std::string input)
        : input_(std::move(input)) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override { return {{"op", "move_input_normalization"}, {"input", input_}}; }
    EditCosts costs() const override { return {EditCost::MovesPreprocessing}; }

protected:
    void change(EditContext& ctx) const override;

private:
    std::string input_;
};

/// The deployment's mean_value / scale_value for a graph normalisation y = (x - mean) * scale, for 0..255
/// pixels: a graph whose means all lie within [-1, 1] normalises [0, 1] floats (torchvision's convention,
/// the image divided by 255 before it), so its values become mean x 255 and scale / 255; one with larger
/// means already works in pixel units and keeps them.
struct DeployNormValues {
    std::vector<double> mean, scale;
    bool fromUnitRange = false; ///< the graph's values were for [0, 1] input and were converted
};
DeployNormValues deployNormValues(const std::vector<double>& mean, const std::vector<double>& scale);

} // namespace bpu
