// SPDX-License-Identifier: MIT
#include "Objective.h"

namespace bpu {

const char* objectiveName(Objective o) {
    return o == Objective::Throughput ? "throughput" : "latency";
}

std::optional<Objective> parseObjective(std::string_view s) {
    if (s == "latency")
        return Objective::Latency;
    if (s == "throughput")
        return Objective::Throughput;
    return std::nullopt;
}

} // namespace bpu
