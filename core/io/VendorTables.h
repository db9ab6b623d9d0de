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

/// `analyze --perf-json`: the compiler's static perf JSON (hbm_perf) at the paths and types the vendor's
/// reader indexes (summary.performance, summary."DDR access data", summary."layer details", summary."model
/// info"), filled with BpuScope's estimates of the BPU part, BpuScope's own fields in a `bpuscope` object at
/// each level, and a top-level `bpuscope` block saying the numbers are estimates (docs/json-schema.md,
/// bpuscope.perf/2).
nlohmann::json perfJson(const Graph& g, const TargetProfile& t, const AnalysisResult& r,
                        const CostEstimate& e);

} // namespace bpu
