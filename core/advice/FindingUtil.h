// SPDX-License-Identifier: MIT
#pragma once

#include "Rules.h"

#include <string>

namespace bpu {

/// A rule's own severity before a gain is estimated: `part`'s share of the model's total of the same quantity
/// against the profile's severity_high_share / severity_medium_share. The cost engine replaces it with the
/// gain's share of the latency.
Severity severityByShare(const AnalysisContext& c, double part, double whole);
/// A BPU node's roofline time: the longer of its compute and memory time, plus the layer's fixed cost when
/// it heads a layer (a fused group's later members share their head's). What the rule gates compare before
/// the cost engine runs; 0 off the BPU.
double rooflineUs(const AnalysisContext& c, NodeId id);
/// rooflineUs summed over every node.
double bpuRooflineUs(const AnalysisContext& c);
/// Shape text "1x64x80x80" for a dim vector.
std::string dimsText(const std::vector<int64_t>& dims);
/// Readable byte count ("1.6 MiB").
std::string bytesText(int64_t bytes);

/// A finding's evidence lists its items (tensors, occurrences of a pattern) up to this many and counts them
/// all (`tensors_total`, `occurrences_total`); its node list and fix name every one. A stage of a 100k-node
/// model puts ~90k tensors in one G4.2 finding and a transformer's G6.6 chain repeats in each of its 3,600
/// layers: listing each held tens of MB of JSON in the analysis and the written document, and building it was
/// a tenth of the analysis at that size.
constexpr size_t kEvidenceItems = 50;

} // namespace bpu
