// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Diagnostic.h"

#include <vector>

namespace bpu {

class Graph;
struct AnalysisResult;
struct DeploySettings;

/// The one list of diagnostics a result carries, in the order a reader meets their causes: the import's
/// (the graph's), the deployment config's notes, the analysis' own. Every front end shows this list and
/// nothing else: the CLI each once on stderr and first in its text, the GUI, the report's first page, the
/// JSON's `diagnostics`. The import's unresolved-input ones are left out once every input has a shape (an
/// edit gave it one).
std::vector<Diagnostic> resultDiagnostics(const Graph& g, const AnalysisResult* r,
                                          const DeploySettings* deploy);

} // namespace bpu
