// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

#include <cstdint>
#include <vector>

namespace bpu {

/// An image normalisation written inside the graph: Sub(mean) / Div(std) (or Mul / Add by constants) applied
/// straight to an image input (1x3xHxW, or 3xHxW as torchvision's detectors take it), per channel or by a
/// scalar - the arithmetic `hb_compile`'s norm_type (data_mean_and_scale, mean_value / scale_value) runs on
/// the BPU as part of the model's input when it is given in the deployment instead.
struct InputNormalization {
    TensorId input;            ///< the image input
    std::vector<NodeId> nodes; ///< the chain, in order
    TensorId output;           ///< what the rest of the model reads
    int64_t channels = 0;
    /// y = (x - mean) * scale per channel, when every constant's value is known (else both empty).
    std::vector<double> mean, scale;

    /// Every such chain in `g` (at most one per image input).
    static std::vector<InputNormalization> find(const Graph& g);
    /// By tensor: an image input (3xHxW or NxCxHxW with at most `maxChannels` channels, H and W >= 16) and
    /// what in-graph preprocessing makes of it before the first layer - normalisation, Cast, Resize, the
    /// reshapes, pads, slices and concats that batch it (torchvision's detection transform), a QAT model's
    /// input fake-quant. The runtime lays these out as it lays out the input.
    static std::vector<uint8_t> imageTensors(const Graph& g, int64_t maxChannels);
};

} // namespace bpu
