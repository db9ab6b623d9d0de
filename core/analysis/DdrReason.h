// SPDX-License-Identifier: MIT
#pragma once

#include "AnalysisResult.h"

#include <string>
#include <vector>

namespace bpu {

class Graph;
struct TargetProfile;

/// How a reason names the parameters: by their profile keys with values (the inspector: "sram_budget_bytes =
/// 4194304"), or in words with values (the report's body, whose keys are in its Method section: "the SRAM
/// budget of 4194304 bytes").
enum class DdrWording { ProfileKeys, Plain };

/// Why a tensor that goes through DDR does (TensorAnalysis::spillsToDdr), by the residency rule of
/// LifetimePass.cpp and the profile parameters that decide it, e.g. "802816 bytes (padded) exceed
/// sram_budget_bytes = 786432" or "live 9 steps, past stream_window_steps = 2, and displaced from SRAM
/// (sram_budget_bytes = 786432) by tensors used sooner"; empty for a tensor that stays on chip. What the
/// inspector and the report say next to a layer's memory time (issue 52).
std::string ddrReason(const Graph& g, const AnalysisResult& r, const TargetProfile& t, TensorId id,
                      DdrWording wording = DdrWording::ProfileKeys);

/// A tensor a BPU layer reads or writes through DDR, and why (ddrReason).
struct DdrTensor {
    TensorId tensor;
    std::string reason;
};
/// What the layer of `node` moves through DDR: every tensor its members (the whole fused group when `node`
/// is in one) read or write that goes through DDR, in member and input-then-output order, each once.
std::vector<DdrTensor> layerDdrTraffic(const Graph& g, const AnalysisResult& r, const TargetProfile& t,
                                       NodeId node, DdrWording wording = DdrWording::ProfileKeys);

} // namespace bpu
