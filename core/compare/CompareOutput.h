// SPDX-License-Identifier: MIT
#pragma once

#include "ModelComparison.h"
#include "core/report/ReportDocument.h"

#include <nlohmann/json.hpp>

#include <string>

namespace bpu {

/// `bpuscope.compare/1` (docs/json-schema.md): `a`, `b` (each side's figures), `summary` (B - A deltas and
/// match counts), `nodes` (matched pairs with their deltas), `unmatched` {a, b}, `findings` {added, removed}.
nlohmann::json comparisonJson(const Comparison& c);
/// Which side's figures rest on guessed shapes and why: "A (a.onnx): <why>; B (b.onnx): <why>", the sides
/// that are partial only; empty when both are complete. Every output of a comparison says it first.
std::string comparisonPartial(const Comparison& c);
/// One row per matched pair, then one per unmatched node (the other side's columns empty).
std::string comparisonCsv(const Comparison& c);
/// The comparison as a report document (summary, largest node deltas, placement and shape changes, unmatched
/// nodes, findings added/removed, how nodes were matched) for the Markdown, HTML and PDF renderers.
/// `generatedAt` empty = now (or SOURCE_DATE_EPOCH).
report::ReportDocument comparisonReport(const Comparison& c, const std::string& generatedAt = {});

} // namespace bpu
