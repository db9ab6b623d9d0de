// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisResult.h"

#include <string>

namespace bpu {

class Graph;
struct TargetProfile;

/// Why a tensor that goes through DDR does (TensorAnalysis::spillsToDdr), by the residency rule of
/// LifetimePass.cpp and the profile parameters that decide it, e.g. "802816 bytes (padded) exceed
/// sram_budget_bytes = 786432" or "live 9 steps, past stream_window_steps = 2, and displaced from SRAM
/// (sram_budget_bytes = 786432) by tensors used sooner"; empty for a tensor that stays on chip. What the
/// inspector and the report say next to a layer's memory time (issue 52).
std::string ddrReason(const Graph& g, const AnalysisResult& r, const TargetProfile& t, TensorId id);

} // namespace bpu
