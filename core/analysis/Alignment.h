// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisFwd.h"
#include "core/target/TargetProfile.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bpu {

/// How the BPU aligns one dim of a tensor padded by `rule` (guide G4), as the profile sets it: the padding
/// pass pads with it, the what-if editor steps by it.
struct DimAlignment {
    int64_t unit = 1;         ///< multiples of this (1: the dim is not padded)
    const char* param = "";   ///< the profile key behind `unit` ("alignment.conv_c"), empty when 1
    bool powerOfTwo = false;  ///< G4.1: below `unit` the dim pads to the next power of two
    const char* dimName = ""; ///< "C", "H", "W", "d2", ... as the padding rules name it

    /// What `v` pads to.
    int64_t align(int64_t v) const;
};

/// Dim `axis` of a rank-`rank` tensor under `rule`: an image input pads H and W to the input units (C kept);
/// a conv-like NCHW / NCW tensor pads C, H, W to the conv units (batch kept); any other tensor pads each
/// dim but the first to a power of two up to the general unit, then to multiples of it.
DimAlignment dimAlignment(PadRule rule, size_t rank, size_t axis, const AlignmentRules& al);

/// How dim `d` of a padded tensor was padded, for people: "C 33->64 (x32, G4.2)", "d2 5->8 (pow2/x16,
/// G4.1)", "W 50->64 (x32, model input)"; empty where the dim is unchanged. `original` is the tensor's shape
/// in the graph. Written on demand (inspector, findings, JSON) from the padded dims and the rule: the
/// padding pass runs on every edit over every tensor and stores no text.
std::string dimPadRule(const PaddedShape& p, const std::vector<int64_t>& original, size_t d,
                       const AlignmentRules& al);
/// The non-empty dimPadRule() of every dim, in dim order.
std::vector<std::string> dimPadRules(const PaddedShape& p, const std::vector<int64_t>& original,
                                     const AlignmentRules& al);

} // namespace bpu
