// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string_view>

namespace bpu {

/// How much a finding matters: from its estimated gain's share of the model's latency (thresholds are the
/// target profile's severity_high_share / severity_medium_share), or the rule's own judgement when no fix
/// could be estimated. Ordered: High ranks first.
enum class Severity { High, Medium, Low };

/// The design-guide rule a finding cites (guide-en.md). Strings ("G4.2") only at the I/O edges.
enum class RuleId { G1_1, G1_2, G3, G4_1, G4_2, G4_3, G6_1, G6_2, G6_3, G6_4, G6_5, G6_6 };

const char* severityName(Severity s); ///< "high", "medium", "low"
std::optional<Severity> parseSeverity(std::string_view s);
const char* ruleName(RuleId r); ///< "G1.1" ... "G6.6", as guide-en.md numbers them
std::optional<RuleId> parseRule(std::string_view s);
/// The G4.x rules (padding).
bool isPaddingRule(RuleId r);

/// High at >= `highShare` of the latency, Medium at >= `mediumShare`, else Low.
Severity severityForShare(double share, double highShare, double mediumShare);

} // namespace bpu
