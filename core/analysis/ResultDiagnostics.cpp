// SPDX-License-Identifier: MIT
#include "ResultDiagnostics.h"

#include "AnalysisResult.h"
#include "core/deploy/DeploySettings.h"
#include "core/model/Completeness.h"
#include "core/model/Graph.h"

#include <algorithm>

namespace bpu {

std::vector<Diagnostic> resultDiagnostics(const Graph& g, const AnalysisResult* r,
                                          const DeploySettings* deploy) {
    // The import's word on unresolved inputs holds for the graph as imported: once an edit gives every input
    // a shape (Completeness reads the graph as it stands), it no longer does.
    const bool resolved = completeness(g).inputsResolved();
    std::vector<Diagnostic> out;
    for (const auto& d : g.diagnostics)
        if (!resolved || (d.code != DiagCode::InputDimUnresolved && d.code != DiagCode::InputShapeMissing))
            out.push_back(d);
    if (deploy)
        for (const auto& n : deploy->notes)
            out.push_back({DiagSeverity::Note, DiagCode::DeploymentNote, deploy->source, n});
    if (r)
        out.insert(out.end(), r->diagnostics.begin(), r->diagnostics.end());
    if (r && !r->guessedFindings.empty()) {
        // Issue 61: left out rather than ranked on a guess; the reader learns they exist and why.
        std::string which;
        const size_t named = std::min<size_t>(3, r->guessedFindings.size());
        for (size_t i = 0; i < named; ++i)
            which += (i ? "; [" : "[") + std::string(ruleName(r->guessedFindings[i].rule)) + "] " +
                     r->guessedFindings[i].title;
        if (r->guessedFindings.size() > named)
            which += "; ...";
        const size_t n = r->guessedFindings.size();
        out.push_back({DiagSeverity::Note, DiagCode::FindingsOnGuesses, g.path,
                       std::to_string(n) + (n == 1 ? " finding is" : " findings are") +
                           " left out of the list (" + which + "): " + (n == 1 ? "its" : "their") +
                           " gain rests on nodes without an inferred shape, so it would be a guess; give "
                           "the shapes the PARTIAL line names to see " +
                           (n == 1 ? "it" : "them")});
    }
    return out;
}

} // namespace bpu
