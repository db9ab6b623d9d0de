// SPDX-License-Identifier: MIT
#pragma once

#include "../util/Progress.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bpu {

/// The largest batch (leading dim of a rank >= 2 input) --batch, --input-shape and the set_batch /
/// set_input_shape edits accept: far beyond what one BPU inference serves.
inline constexpr int64_t kMaxBatch = 4096;
/// The largest other input dim.
inline constexpr int64_t kMaxInputDim = int64_t{1} << 20;
/// The most elements any tensor of an imported model may hold: 2^40 is 1 TiB at int8, beyond the memory
/// of any device BpuScope models. A larger shape is an error in the model, and refusing it keeps every
/// count the analysis derives from shapes far from int64's end.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 40;

/// Why `dims` cannot be an input shape ("" if it can): a dim outside 1..kMaxInputDim, a batch over
/// kMaxBatch, more than kMaxInputElements elements. The one rule for the options and the edits.
std::string inputShapeProblem(const std::vector<int64_t>& dims);

/// How to resolve what the file leaves open.
struct ImportOptions {
    /// Value for a symbolic or unknown leading (batch) dim of every model input.
    int64_t batch = 1;
    /// Full shapes for named inputs (`--input-shape NAME=1x3x640x640`); override what the file says.
    std::map<std::string, std::vector<int64_t>> inputShapes;
    /// Where each shape of `inputShapes` came from, for messages ("the config's input_shape"); a name not
    /// listed came from --input-shape. The name "" stands for the model's only input (a config without
    /// input_name).
    std::map<std::string, std::string> inputShapeOrigin;
    /// Where each input name of `inputShapes` came from when that is another key than its shape's (a
    /// config's input_name; issue 64): a name that is no model input is that key's error, not the shape's.
    std::map<std::string, std::string> inputNameOrigin;
    /// The leading dim of every rank >= 2 input without a shape above, fixed or symbolic (a config's
    /// input_batch: hb_compile compiles at that batch); 0: only symbolic batch dims take `batch`.
    int64_t forceBatch = 0;
    Progress progress;
};

/// Parses "NAME=1x3x640x640" into (name, dims); throws std::invalid_argument with a readable reason.
std::pair<std::string, std::vector<int64_t>> parseInputShapeArg(const std::string& arg);

} // namespace bpu
