// SPDX-License-Identifier: MIT
#include "ResultDiagnostics.h"

#include "AnalysisResult.h"
#include "core/deploy/DeploySettings.h"
#include "core/model/Graph.h"

namespace bpu {

std::vector<Diagnostic> resultDiagnostics(const Graph& g, const AnalysisResult* r,
                                          const DeploySettings* deploy) {
    std::vector<Diagnostic> out = g.diagnostics;
    if (deploy)
        for (const auto& n : deploy->notes)
            out.push_back({DiagSeverity::Note, DiagCode::DeploymentNote, deploy->source, n});
    if (r)
        out.insert(out.end(), r->diagnostics.begin(), r->diagnostics.end());
    return out;
}

} // namespace bpu
