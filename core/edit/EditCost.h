// SPDX-License-Identifier: MIT
// What a concrete change costs its model's owner besides time (issue 45): a fix that saves 0.3 ms but needs
// retraining is another decision than a compile option that saves the same.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace bpu {

enum class EditCost : uint8_t {
    ChangesOutputs,     ///< the model computes something else (another resolution; a cut head's work moves to
                        ///< the application)
    NeedsRetraining,    ///< the trained weights no longer fit: fine-tune or retrain (channels, groups)
    ThroughputTradeOff, ///< faster per image, slower per frame (batching)
    ChangesIoTypes, ///< the application feeds or reads the quantized tensors itself (boundary Q/DQ removed)
    /// Preprocessing moves from the graph into the deployment's config (the input normalisation's
    /// norm_type, mean_value, scale_value): the application feeds the image without normalising it
    MovesPreprocessing,
    /// Fewer input pixels (a smaller input size): part of the time saved is less work on a different model,
    /// not a better use of the chip; check the accuracy (issue 61)
    LowersResolution,
};
inline constexpr int kEditCostCount = 6;

/// A set of EditCost.
class EditCosts {
public:
    EditCosts() = default;
    EditCosts(std::initializer_list<EditCost> costs) {
        for (EditCost c : costs)
            add(c);
    }
    void add(EditCost c) { bits_ = static_cast<uint8_t>(bits_ | (1u << static_cast<unsigned>(c))); }
    EditCosts& operator|=(EditCosts o) {
        bits_ = static_cast<uint8_t>(bits_ | o.bits_);
        return *this;
    }
    bool has(EditCost c) const { return (bits_ >> static_cast<unsigned>(c)) & 1u; }
    bool empty() const { return bits_ == 0; }
    /// In the enum's order.
    std::vector<EditCost> list() const;
    bool operator==(const EditCosts&) const = default;

private:
    uint8_t bits_ = 0;
};

/// The JSON name ("needs_retraining").
const char* editCostName(EditCost c);
/// What a person reads ("needs retraining or fine-tuning").
const char* editCostText(EditCost c);

} // namespace bpu
