// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

namespace bpu {

/// What the user optimises (issue 62): findings and the plan rank by gain in it. `Latency` (the default) is
/// one frame's time: a fix that makes each frame wait longer (batching) has no gain in it, whatever it does
/// for the images per second. `Throughput` is the images per second with the profile's two threads.
enum class Objective { Latency, Throughput };

const char* objectiveName(Objective o); ///< "latency", "throughput"
std::optional<Objective> parseObjective(std::string_view s);

} // namespace bpu
