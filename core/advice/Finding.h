// SPDX-License-Identifier: MIT
#pragma once

#include "FindingKinds.h"
#include "core/edit/EditFwd.h"
#include "core/model/Ids.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bpu {

/// One actionable finding, tied to a rule of the design guide by its id exactly as in guide-en.md.
struct Finding {
    RuleId rule = RuleId::G1_1;
    Severity severity = Severity::Low;
    /// What the finding is about, unique per rule (a CPU op type, a padded layer, a transform pattern): the
    /// engine raises one finding per (rule, cause), listing every node it covers with per-node evidence.
    std::string cause;
    std::string title;
    std::vector<NodeId> nodes;
    nlohmann::json evidence = nlohmann::json::object();
    std::string recommendation;
    EditList fix;            ///< the what-if edits that apply the recommendation; empty when there is none
    EditList alternativeFix; ///< another way to apply it the user may prefer (its gain is not estimated)
    std::optional<double> estimatedGainMs; ///< filled by the cost engine; null until then
};

} // namespace bpu
