// SPDX-License-Identifier: MIT
#pragma once

// The input-resolution fix for H/W padding (G4, issue 48): the stages of a CNN are its input divided by the
// strides on the way, so an input that is a multiple of the model's stride gives stages that divide as the
// alignment units want, and the padding of every stage changes at once. The rule raises one finding with
// candidate input sizes; the fix search (FixSearch.h) tries them and chooses.

#include "Rules.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace bpu {

/// The model's one image input and which of its dims are H and W.
struct ImageInput {
    TensorId id;
    int hAxis = 2, wAxis = 3; ///< NCHW; NHWC has them at 1 and 2
    int64_t h = 0, w = 0;
};

/// The model's image input (rank 4 with known dims, at most `maxChannels` channels in dim 1, or in dim 3
/// for NHWC, H and W >= 16), when it has exactly one; nullopt otherwise.
std::optional<ImageInput> findImageInput(const Graph& g, int64_t maxChannels);

/// The input's stride to its smallest feature map, per axis (H, W): the ratio of the input's extent to that
/// map's, as the nearest power of two (a stride-2 conv on an odd extent rounds up, 520 -> 33 is stride 16).
/// The smallest map is the BPU conv-like rank-4 activation with the fewest H x W pixels, a 1x1 vector
/// excluded. nullopt when there is none or the ratio is below 2.
std::optional<std::pair<int64_t, int64_t>> modelStride(const Graph& g, const AnalysisResult& r,
                                                       const ImageInput& in);

/// Candidate input sizes (H, W): multiples of the stride per side within `range` (0.25: +-25%) of today's,
/// today's excluded; a square input stays square. Nearest to today's pixel count first, at most `max`.
std::vector<std::pair<int64_t, int64_t>> resolutionCandidates(int64_t h, int64_t w, int64_t strideH,
                                                              int64_t strideW, double range, size_t max);

/// Raises the input-resolution finding over `hwPadded` (the BPU activations padded in H or W that the
/// padding rule found worth a finding): one finding for all of them, its candidates set_input_shape edits.
void addInputResolutionFinding(AnalysisContext& c, const std::vector<TensorId>& hwPadded);

} // namespace bpu
