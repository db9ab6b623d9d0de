// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>

namespace bpu {

/// Where a node runs: the operator table's default for its op type (OpRule::placement), then the analysis'
/// decision for the node (NodeAnalysis::placement).
enum class Placement : unsigned char { BPU, CPU, Folded };

const char* placementName(Placement p); ///< "BPU", "CPU", "folded"
/// The names placementName() prints, and "bpu" / "cpu" as users type them.
std::optional<Placement> parsePlacement(const std::string& s);

} // namespace bpu
