// SPDX-License-Identifier: MIT
#pragma once

// The design guide's rules (G1-G6), one file per guide section (FindingsG1.cpp ... FindingsG6.cpp,
// FindingsActivation.cpp): each reads the facts the analysis passes left in the context's result and adds
// its findings to it. Advisor runs them in this order.

#include "core/analysis/Passes.h"

namespace bpu {

void findPlacementIssues(AnalysisContext& c);     ///< G1.2 findings
void findQdqIssues(AnalysisContext& c);           ///< G1.1 findings
void findFusionIssues(AnalysisContext& c);        ///< G3 findings
void findPaddingIssues(AnalysisContext& c);       ///< G4.1 / G4.2 / G4.3 findings
void findGroupConv(AnalysisContext& c);           ///< G6.1
void findFeatureMaps(AnalysisContext& c);         ///< G6.2
void findOutputTail(AnalysisContext& c);          ///< G6.2: a full-resolution output tail (a cut)
void findLargeWeights(AnalysisContext& c);        ///< G6.3
void findShortcuts(AnalysisContext& c);           ///< G6.4
void findBatchMode(AnalysisContext& c);           ///< G6.5
void findTransforms(AnalysisContext& c);          ///< G6.6
void findSeparateActivations(AnalysisContext& c); ///< G3: activations run as their own layers after a conv

} // namespace bpu
