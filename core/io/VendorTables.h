// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisResult.h"
#include "core/cost/CostEstimate.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bpu {

/// `analyze --node-info`: one row per ONNX node in the model's own node order, with the columns of the
/// compiler's `<prefix>_node_info.csv` (Node, ON, Subgraph, Type, Cosine Similarity, Threshold, DataType) so
/// the two files can be diffed line by line. ON is BPU / CPU, or `--` for a node fused into the layer of
/// another (a fused group's non-head member) or folded away at compile time; Subgraph is the BPU segment
/// (`--` off the BPU); the two accuracy columns are `--` (BpuScope runs no calibration data).
std::string nodeInfoCsv(const Graph& g, const AnalysisResult& r);

/// `analyze --perf-json`: the shape of the compiler's static perf JSON (hbm_perf) filled with BpuScope's
/// estimates of the BPU part: summary.performance, summary."DDR access data", "layer details", "model info",
/// plus a `bpuscope` block saying the numbers are estimates (docs/json-schema.md, bpuscope.perf/1).
nlohmann::json perfJson(const Graph& g, const TargetProfile& t, const AnalysisResult& r,
                        const CostEstimate& e);

} // namespace bpu
