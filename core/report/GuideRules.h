// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace bpu::report {

/// One rule of the S100 design guide as the report quotes it.
struct GuideRule {
    std::string id;     ///< "G1", "G1.1", ... "G6.6"
    std::string parent; ///< "G1" for "G1.1"; empty for a top-level rule
    std::string title;
    std::string text;
};

/// The guide's rules (resources/rules/guide-rules.json), in guide order.
class GuideRules {
public:
    GuideRules() = default;
    explicit GuideRules(std::vector<GuideRule> rules)
        : rules_(std::move(rules)) {}

    const std::vector<GuideRule>& all() const { return rules_; }
    /// The rule with this id, or nullptr.
    const GuideRule* find(const std::string& id) const;
    /// The rule's parent (G1 for G1.1), or nullptr.
    const GuideRule* parentOf(const std::string& id) const;

private:
    std::vector<GuideRule> rules_;
};

/// Default location: resourceDir() + "/rules/guide-rules.json".
std::string defaultGuideRulesPath();
/// Loads the rules file; throws std::runtime_error naming the file and the problem.
GuideRules loadGuideRules(const std::string& path = defaultGuideRulesPath());

} // namespace bpu::report
