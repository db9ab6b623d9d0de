// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisResult.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <nlohmann/json.hpp>
#include <string>

namespace bpu {

struct CostEstimate;
class Session;

/// `bpuscope.analysis/1`: model, target, summary, nodes[], tensors (padded), qdq[], groups[], findings[].
/// With a cost estimate, the summary gains latency_ms/fps and each node latency_us/share.
nlohmann::json analysisJson(const Graph& g, const TargetProfile& t, const AnalysisResult& r,
                            const CostEstimate* cost = nullptr);
nlohmann::json findingJson(const Graph& g, const Finding& f);
nlohmann::json targetJson(const TargetProfile& t);
/// The analysis of a what-if session: analysisJson of its current state plus `baseline` {latency_ms, fps}
/// (the estimate before the edits) and `edits` (the applied edit list).
nlohmann::json sessionJson(Session& s, const CostEstimate& baseline, const EditList& edits);
/// One CSV row per node with the same columns as nodes[] in the JSON.
std::string analysisCsv(const Graph& g, const AnalysisResult& r, const CostEstimate* cost = nullptr);

} // namespace bpu
