// SPDX-License-Identifier: MIT
#pragma once

#include "EditFwd.h"
#include "core/model/Ids.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bpu {

class Graph;
class Session;
struct AnalysisResult;
struct TargetProfile;

/// What a drag editor may change.
enum class DimKind {
    OutputChannels, ///< a Conv's output channels (set_channels)
    InputHeight,    ///< H of an NCHW model input (set_input_shape)
    InputWidth,     ///< W of an NCHW model input (set_input_shape)
};

/// One dim the user may change, with the alignment the BPU applies to it (from the target profile, as the
/// padding pass applies it) and the edit that sets it: a front end steps, marks and pads by these numbers
/// and never restates an alignment rule.
struct EditableDim {
    DimKind kind = DimKind::OutputChannels;
    std::string target;         ///< the conv's node name, or the model input's name
    TensorId tensor;            ///< the tensor the dim belongs to (the conv's output, or the input)
    size_t axis = 0;            ///< its axis in `tensor`
    int64_t current = 0;        ///< the value now
    int64_t step = 1;           ///< legal values are multiples of this (a grouped conv's group)
    int64_t unit = 1;           ///< the BPU pads the dim to multiples of this (1: not padded)
    std::string unitParam;      ///< the profile parameter behind `unit` ("alignment.conv_c"); empty if 1
    bool powerOfTwo = false;    ///< below `unit` it pads to a power of two (G4.1)
    int64_t lo = 1, hi = 1;     ///< the range a drag offers around `current`
    std::vector<int64_t> shape; ///< the input's whole shape (input dims), to build the edit
    /// An input dim of a model whose export fixed sizes that follow the input in constants (a traced
    /// Reshape to 1x192x1600, BakedSizes.h): set_input_shape applies at almost no other value (yolo12n:
    /// 636..640 of 160..1280), so the dim is moved as `assume_reexported` (ReexportEdit): the model as
    /// its exporter would write it at that size. Idealized: an estimate of a re-export, never exported.
    bool reexport = false;
    /// With `reexport`: the first constant the export fixed, "'/model.6/.../Reshape' (Reshape shape
    /// 1x192x1600)", and how many there are.
    std::string bakedExample;
    size_t bakedCount = 0;

    /// The edit that sets this dim to `value` (absolute: a later one supersedes it, same mergeKey): an
    /// `assume_reexported` one when `reexport`.
    EditPtr at(int64_t value) const;
    /// What the BPU pads `value` to.
    int64_t padded(int64_t value) const;
    /// "Output channels", "Input H", "Input W".
    std::string label() const;
};

/// The dims a user may drag with `node` selected: its output channels when it is a Conv whose weight can be
/// resized (not depthwise: those follow their input), then H and W of each NCHW model input (offered for
/// any node, and with no node). A dim the graph fixes downstream is still listed: sweep() finds out.
std::vector<EditableDim> editableDims(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                                      NodeId node);
/// The same for a session's current state.
std::vector<EditableDim> editableDims(const Session& s, NodeId node);

} // namespace bpu
