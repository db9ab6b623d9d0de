// SPDX-License-Identifier: MIT
#include "ResultDiagnostics.h"

#include "AnalysisResult.h"
#include "core/deploy/DeploySettings.h"
#include "core/model/Completeness.h"
#include "core/model/Graph.h"

namespace bpu {

std::vector<Diagnostic> resultDiagnostics(const Graph& g, const AnalysisResult* r,
                                          const DeploySettings* deploy) {
    // The import's word on unresolved inputs holds for the graph as imported: once an edit gives every input
    // a shape (Completeness reads the graph as it stands), it no longer does.
    const bool resolved = completeness(g).complete();
    std::vector<Diagnostic> out;
    for (const auto& d : g.diagnostics)
        if (!resolved || (d.code != DiagCode::InputDimUnresolved && d.code != DiagCode::InputShapeMissing))
            out.push_back(d);
    if (deploy)
        for (const auto& n : deploy->notes)
            out.push_back({DiagSeverity::Note, DiagCode::DeploymentNote, deploy->source, n});
    if (r)
        out.insert(out.end(), r->diagnostics.begin(), r->diagnostics.end());
    return out;
}

} // namespace bpu
