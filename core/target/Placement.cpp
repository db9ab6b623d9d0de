// SPDX-License-Identifier: MIT
#include "Placement.h"

namespace bpu {

const char* placementName(Placement p) {
    switch (p) {
    case Placement::BPU:
        return "BPU";
    case Placement::CPU:
        return "CPU";
    case Placement::Folded:
        return "folded";
    }
    return "BPU";
}

std::optional<Placement> parsePlacement(const std::string& s) {
    if (s == "BPU" || s == "bpu")
        return Placement::BPU;
    if (s == "CPU" || s == "cpu")
        return Placement::CPU;
    if (s == "folded")
        return Placement::Folded;
    return std::nullopt;
}

} // namespace bpu
