// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Completeness.h"
#include "core/model/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace bpu {

/// [{"severity": "warning", "code": "input-dim-unresolved", "file": ..., "text": ...}, ...]: the one JSON
/// form of diagnostics, for `info --json`, `analyze --json` (core/io) and the JSON report.
nlohmann::json diagnosticsJson(const std::vector<Diagnostic>& diagnostics);
/// Sets `complete` (bool), `partial_reasons` (the reasons, [] when complete) and `partial_summary` (the
/// sentence, "" when complete) on `doc`: what every document that carries figures says first.
void setCompleteness(nlohmann::json& doc, const Completeness& c);

} // namespace bpu
