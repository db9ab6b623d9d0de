// SPDX-License-Identifier: MIT
#include "FindingKinds.h"

#include <iterator>

namespace bpu {

namespace {
constexpr const char* kRuleNames[] = {"G1.1", "G1.2", "G3",   "G4.1", "G4.2", "G4.3",
                                      "G6.1", "G6.2", "G6.3", "G6.4", "G6.5", "G6.6"};
static_assert(std::size(kRuleNames) == static_cast<size_t>(RuleId::G6_6) + 1);
} // namespace

const char* severityName(Severity s) {
    switch (s) {
    case Severity::High:
        return "high";
    case Severity::Medium:
        return "medium";
    case Severity::Low:
        return "low";
    }
    return "low";
}

std::optional<Severity> parseSeverity(std::string_view s) {
    for (Severity v : {Severity::High, Severity::Medium, Severity::Low})
        if (s == severityName(v))
            return v;
    return std::nullopt;
}

const char* ruleName(RuleId r) {
    return kRuleNames[static_cast<size_t>(r)];
}

std::optional<RuleId> parseRule(std::string_view s) {
    for (size_t i = 0; i < std::size(kRuleNames); ++i)
        if (s == kRuleNames[i])
            return static_cast<RuleId>(i);
    return std::nullopt;
}

bool isPaddingRule(RuleId r) {
    return r == RuleId::G4_1 || r == RuleId::G4_2 || r == RuleId::G4_3;
}

Severity severityForShare(double share, double highShare, double mediumShare) {
    return share >= highShare ? Severity::High : share >= mediumShare ? Severity::Medium : Severity::Low;
}

} // namespace bpu
