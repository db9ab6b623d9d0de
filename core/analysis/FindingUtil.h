// SPDX-License-Identifier: MIT
#pragma once

#include "Passes.h"

#include <string>

namespace bpu {

/// "high" at >= 10% of the model's total of the same quantity, "medium" at >= 2%, else "low".
std::string severityByShare(double part, double whole);
/// Shape text "1x64x80x80" for a dim vector.
std::string dimsText(const std::vector<int64_t>& dims);
/// Readable byte count ("1.6 MiB").
std::string bytesText(int64_t bytes);

} // namespace bpu
