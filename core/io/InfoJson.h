// SPDX-License-Identifier: MIT
#pragma once

#include "../metrics/NodeMetrics.h"
#include "../model/Graph.h"

#include <nlohmann/json.hpp>

namespace bpu {

/// The `model` object shared by every JSON schema (info, analysis): path, ir_version, opsets, producer,
/// nodes, params, macs, weight_bytes, op_histogram.
nlohmann::json modelJson(const Graph& g, const ModelMetrics& totals);
/// One model input/output: name, dtype, shape (dims, -1 unknown), shape_text.
nlohmann::json valueJson(const Graph& g, TensorId id);
/// The whole `bpuscope.info/1` document.
nlohmann::json infoJson(const Graph& g, const ModelMetrics& totals);

} // namespace bpu
