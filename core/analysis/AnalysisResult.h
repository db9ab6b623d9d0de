// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisTypes.h"
// Transitional (issue 44): the result still carries the findings list, so it sees their type; moving the
// list out touches ~150 reads in 38 files, for the issue that gives Session its own layer.
#include "core/advice/Finding.h"
#include "core/metrics/NodeMetrics.h"
#include "core/model/Diagnostic.h"

#include <vector>

namespace bpu {

/// Everything the passes found, as one value: per node and per tensor (indexed by id), plus the model-level
/// lists. Front ends read it; they never recompute a number of their own.
struct AnalysisResult {
    std::vector<NodeMetrics> metrics; ///< by NodeId
    ModelMetrics totals;
    std::vector<NodeAnalysis> nodes;     ///< by NodeId
    std::vector<TensorAnalysis> tensors; ///< by TensorId
    std::vector<QdqPass> qdq;
    std::vector<Crossing> crossings;     ///< CPU<->BPU hand-overs of tensors (in DDR), in tensor order
    std::vector<Transition> transitions; ///< switches of units: entering / leaving a BPU segment
    /// By node: part of the post-processing tail inside the model (decoding, score filtering, NMS after the
    /// last layers; PostProcessPass.cpp). Empty when the model has none.
    std::vector<uint8_t> postProcessing;
    std::vector<TensorId> headOutputs; ///< where the tail starts: the tensors a cut_at there would keep
    std::vector<FusedGroup> groups;
    std::vector<MissedFusion> missed;
    std::vector<Finding> findings; ///< ranked; at most the profile's findings_max once gains are estimated
    /// The findings ranked below findings_max (Advisor::estimateGains), whole: summarised in one line by the
    /// front ends, carried in full by the JSON.
    std::vector<Finding> foldedFindings;
    /// The findings left out because their gain rests on nodes whose output shape nobody knows (issue 61;
    /// Advisor::estimateGains): counted in one note (ResultDiagnostics), carried whole for the JSON.
    std::vector<Finding> guessedFindings;
    std::vector<Diagnostic> diagnostics; ///< the analysis' own (the import's are the graph's)
    AnalysisSummary summary;
    bool qdqFormat = false;    ///< the model carries explicit Q/DQ pairs around its ops
    double ridgeIntensity = 0; ///< MACs per byte where dense conv turns compute-bound

    const FusedGroup* group(GroupId id) const { return id.valid() ? &groups[id.value] : nullptr; }
};

} // namespace bpu
