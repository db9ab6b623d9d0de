// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <string>

namespace bpu {

/// Appends `v` to `out` exactly as `v.dump(2)` writes it when it sits `depth` levels deep in a document
/// (every line after the first indented by 2 * depth more). A value that holds a long list (a finding's
/// 96k tensor names, a plan step's edit) is written element by element with `spill()` called after each, so
/// the caller can hand `out` on in pieces: no single text of the whole value is ever built. Smaller values
/// are dumped whole (one serializer pass is the faster way for them).
void appendPretty(std::string& out, const nlohmann::json& v, size_t depth,
                  const std::function<void()>& spill);

} // namespace bpu
