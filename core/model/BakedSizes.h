// SPDX-License-Identifier: MIT
#pragma once

#include "Ids.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bpu {

class Graph;

/// How one element of a size follows the model's input: ceil(H / stride) (a stage of a CNN: a stride-2 conv
/// rounds up, 520 -> 260 -> 130 -> 65 -> 33), H * stride (an upsample past the input), or the H x W of the
/// stage at `stride` (a flattened map).
struct SizeFollow {
    enum Axis : uint8_t { None, H, W, Area } axis = None;
    int64_t stride = 0; ///< a power of two; negative: the input's extent times -stride
};

/// A size an export fixed in a constant (issue 61). torch.onnx traces `F.interpolate(x, size=y.shape[-2:])`
/// as `Resize(sizes = Concat(Slice(Shape(x), 0, 2), Constant[h, w]))` and `x.view(n, c, h * w)` as a
/// Reshape to a constant: the numbers seen while tracing, which no longer fit at another input size.
struct BakedSize {
    NodeId node;                ///< the Resize / Reshape / Expand / ConstantOfShape that applies the size
    std::string input;          ///< which of its inputs holds it: "sizes", "shape"
    std::vector<int64_t> value; ///< the size as folded, e.g. [1, 8, 33, 33]
    /// Per element of `value`: a number the export fixed (a constant), not one computed from a shape.
    std::vector<bool> fixed;
    /// Per element: the constant tensor (an initializer or a Constant node's output) and the index in it
    /// that the element is, when it is one element of one; invalid otherwise (computed, or from a shape).
    std::vector<std::pair<TensorId, size_t>> source;
    /// Per element: how it follows the input at the traced size (SizeFollow), if it does.
    std::vector<SizeFollow> follows;
    /// Every element that follows the input is one element of an initializer or Constant node: a re-export
    /// can be estimated by rewriting them (reexportedValue).
    bool rewritable = false;
};

/// The traced input size the elements are matched against (the model's image input H x W as the file has
/// it), or none: then a size counts as baked when a Resize's, Expand's or ConstantOfShape's H/W elements
/// are fixed, whatever they equal.
struct TracedInput {
    int64_t h = 0, w = 0;
};

/// The baked sizes at `node` and among its ancestors (its inputs' producers, recursively; nearest first; at
/// most `max`): each a size-applying node with a fixed element that follows the input (with `traced`), or a
/// Resize / Expand / ConstantOfShape of rank 4 whose H or W is fixed (without).
std::vector<BakedSize> bakedSizesBehind(const Graph& g, NodeId node, const std::optional<TracedInput>& traced,
                                        size_t max = 3);
/// Every size-applying node of the graph with a fixed element that follows `traced`.
std::vector<BakedSize> bakedSizes(const Graph& g, const TracedInput& traced);

/// The value each element of `b` would hold had the model been exported at `h1` x `w1`: the elements that
/// follow the input scaled as they do (ceil(h1 / stride), ...), the others as they are.
std::vector<int64_t> reexportedValue(const BakedSize& b, int64_t h1, int64_t w1);

/// "'/aspp/Resize' (Resize sizes 1x256x33x33)": the node, its op, and the size.
std::string bakedSizeText(const Graph& g, const BakedSize& b);

} // namespace bpu
