// SPDX-License-Identifier: MIT
#include "GuideRules.h"

#include "core/target/TargetProfile.h"

#include <nlohmann/json.hpp>

#include "core/util/JsonFile.h"
#include <stdexcept>

namespace bpu::report {

const GuideRule* GuideRules::find(const std::string& id) const {
    for (const auto& r : rules_)
        if (r.id == id)
            return &r;
    return nullptr;
}

const GuideRule* GuideRules::parentOf(const std::string& id) const {
    const GuideRule* r = find(id);
    return r && !r->parent.empty() ? find(r->parent) : nullptr;
}

std::string defaultGuideRulesPath() {
    return resourceDir() + "/rules/guide-rules.json";
}

GuideRules loadGuideRules(const std::string& path) {
    const nlohmann::json doc = readJsonFile(path, {"rules file", file_limits::kJson});
    if (!doc.is_object() || doc.value("schema", std::string()) != "bpuscope.rules/1" ||
        !doc.contains("rules") || !doc["rules"].is_array())
        throw std::runtime_error(path + ": expected {\"schema\": \"bpuscope.rules/1\", \"rules\": [...]}");
    std::vector<GuideRule> rules;
    for (const auto& j : doc["rules"]) {
        if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("text") ||
            !j["text"].is_string())
            throw std::runtime_error(path + ": each rule needs a string \"id\" and \"text\"");
        rules.push_back({j["id"].get<std::string>(), j.value("parent", std::string()),
                         j.value("title", std::string()), j["text"].get<std::string>()});
    }
    return GuideRules(std::move(rules));
}

} // namespace bpu::report
