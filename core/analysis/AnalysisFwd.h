// SPDX-License-Identifier: MIT
// The analysis' types by name only, for headers that pass them by reference or hold one of its enums: such a
// header includes this instead of AnalysisTypes.h, so a change to the analysis' structs recompiles only the
// files that read them (docs/development.md). The enums are complete here (a scoped enum's underlying type is
// int); a member defaulted without the enumerators in sight is value-initialised, which AnalysisTypes.h
// checks is the first enumerator (Precision::Int8, Bound::None, PadRule::None).
#pragma once

namespace bpu {

enum class Bound;
enum class Precision;
enum class PadRule;
struct PaddedShape;
struct TensorAnalysis;
struct NodeAnalysis;
struct QdqPass;
struct Crossing;
struct Transition;
struct FusedGroup;
struct MissedFusion;
struct AnalysisSummary;
struct AnalysisResult;

} // namespace bpu
