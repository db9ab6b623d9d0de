// SPDX-License-Identifier: MIT
#include "EditCost.h"

namespace bpu {

namespace {

struct CostNames {
    const char* name;
    const char* text;
};
// In the enum's order.
constexpr CostNames kNames[kEditCostCount] = {
    {"changes_outputs", "changes the model's outputs"},
    {"needs_retraining", "needs retraining or fine-tuning"},
    {"throughput_trade_off", "throughput trade-off: slower per frame"},
    {"changes_io_types", "the application converts the model's inputs/outputs itself"},
    {"moves_preprocessing",
     "the deployment config normalises the input (the application feeds it unnormalised)"},
    {"lowers_resolution", "fewer input pixels: another model, check the accuracy"},
};

} // namespace

std::vector<EditCost> EditCosts::list() const {
    std::vector<EditCost> out;
    for (int i = 0; i < kEditCostCount; ++i)
        if (has(static_cast<EditCost>(i)))
            out.push_back(static_cast<EditCost>(i));
    return out;
}

const char* editCostName(EditCost c) {
    return kNames[static_cast<int>(c)].name;
}

const char* editCostText(EditCost c) {
    return kNames[static_cast<int>(c)].text;
}

} // namespace bpu
