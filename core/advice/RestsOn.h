// SPDX-License-Identifier: MIT
#pragma once

#include "core/target/TargetProfile.h"

#include <string>
#include <vector>

namespace bpu {

/// What a finding's gain depends on (issue 62): a profile parameter that prices at least half of the time
/// its trial changed (keysCarryingChange, core/cost/PricedTime.h), or an assumption its rule makes (the
/// profile's `assumptions` block). A parameter the calibration does not identify, or an assumption no
/// published source states, is weak: the finding says so wherever it is shown and is at most medium.
struct RestsOn {
    enum class Kind { Parameter, Assumption };
    Kind kind = Kind::Parameter;
    std::string id;    ///< the profile key, or the assumption's id
    bool weak = false; ///< not identified by the calibration / no published source
    std::string note;  ///< the parameter's source or estimate note; the assumption's text
};

/// The entries for the profile keys `keys` and the assumption ids `assumptions`, resolved against `t`
/// (an assumption the profile does not state is weak, its note says so).
std::vector<RestsOn> restsOn(const TargetProfile& t, const std::vector<std::string>& keys,
                             const std::vector<std::string>& assumptions);
/// Any of `r` weak.
bool anyWeak(const std::vector<RestsOn>& r);
/// "rests on group_conv_efficiency (not identified by the calibration) and an unsourced assumption
/// (lut_activation_separate_layer)"; empty when none is weak.
std::string weakRestsOnText(const std::vector<RestsOn>& r);
/// The marker a weak finding carries in text tables and the GUI ("unproven").
constexpr const char* kUnprovenMarker = "unproven";

} // namespace bpu
