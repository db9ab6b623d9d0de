// SPDX-License-Identifier: MIT
#include "DiagnosticsJson.h"

namespace bpu {

nlohmann::json diagnosticsJson(const std::vector<Diagnostic>& diagnostics) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : diagnostics)
        out.push_back({{"severity", diagSeverityName(d.severity)},
                       {"code", diagCodeName(d.code)},
                       {"file", d.file},
                       {"text", d.text}});
    return out;
}

void setCompleteness(nlohmann::json& doc, const Completeness& c) {
    doc["complete"] = c.complete();
    doc["partial_reasons"] = c.reasons;
    doc["partial_summary"] = c.summary();
}

} // namespace bpu
