// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Completeness.h"
#include "core/model/Diagnostic.h"

#include <string>
#include <vector>

namespace bpu::cli {

/// Each diagnostic once on stderr, whatever outputs the command writes: "bpuscope: warning: <file>: <text>"
/// ("note" for a note), escaped as error lines are.
void printDiagnostics(const std::vector<Diagnostic>& diagnostics);

/// What a text output says before any figure: "PARTIAL: <why> - pass --input-shape NAME=..." when the result
/// rests on unresolved inputs, then "warning: <text>" / "note: <text>" for each diagnostic. Empty when
/// there is nothing to say.
std::string resultHead(const Completeness& completeness, const std::vector<Diagnostic>& diagnostics);

} // namespace bpu::cli
