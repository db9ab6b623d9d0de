// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisResult.h"
#include "core/cost/CostEstimate.h"
#include "core/deploy/DeploySettings.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace bpu {

class Session;

/// `bpuscope.analysis/1`: model, target, summary, nodes[], tensors (padded), qdq[], groups[], findings[].
/// With a cost estimate, the summary gains the three figures (bpu_ms, latency_ms, fps_by_threads) and each
/// node latency_us/share, and `cost_rows` lists the passes, transitions and overhead; with the deployment,
/// `deployment` says what it resolves to.
nlohmann::json analysisJson(const Graph& g, const TargetProfile& t, const AnalysisResult& r,
                            const CostEstimate* cost = nullptr, const DeploySettings* deploy = nullptr);
/// The summary's cost fields: bpu_ms, latency_ms, fps, fps_by_threads, batch, figures (their labels),
/// runtime_io_bytes, latency_breakdown_us.
nlohmann::json costSummaryJson(const CostEstimate& c);
/// One object per CostRow: kind, label, tensor, node, elements, latency_us, latency_share, on_bpu, formula.
nlohmann::json costRowsJson(const Graph& g, const CostEstimate& c);
nlohmann::json findingJson(const Graph& g, const Finding& f);
nlohmann::json targetJson(const TargetProfile& t);
/// The analysis of a what-if session: analysisJson of its current state plus `baseline` {latency_ms, fps}
/// (the estimate before the edits) and `edits` (the applied edit list).
nlohmann::json sessionJson(Session& s, const CostEstimate& baseline, const EditList& edits);
/// Receives a document's text piece by piece, in order.
using TextSink = std::function<void(std::string_view)>;
/// Writes sessionJson(s, baseline, edits) with `extra`'s members added at its top level, as dump(2) + "\n"
/// would write it, to `sink` in pieces: the node table and the fusion groups are made into json one entry at
/// a time rather than whole (at 100k nodes the document in memory would be ~0.4 GB, the model's analysis
/// three times over).
void writeSessionJson(const TextSink& sink, Session& s, const CostEstimate& baseline, const EditList& edits,
                      const nlohmann::json& extra = nlohmann::json::object());
/// One CSV row per node with the same columns as nodes[] in the JSON.
std::string analysisCsv(const Graph& g, const AnalysisResult& r, const CostEstimate* cost = nullptr);

} // namespace bpu
