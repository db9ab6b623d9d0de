// SPDX-License-Identifier: MIT
#pragma once

#include "EditableDims.h"
#include "core/util/Progress.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bpu {

class Graph;
class Session;
struct TargetProfile;

/// The fewest points a bounded curve keeps: its two ends and the current value.
inline constexpr size_t kSweepMinPoints = 3;

/// The estimate at one value of a swept dim.
struct SweepPoint {
    int64_t value = 0;
    bool applies = false;   ///< false: the edit is rejected at this value (`error` of the result says why)
    double perImageMs = 0;  ///< latency per image
    double tensorWaste = 0; ///< padding waste ratio of the dim's tensor (the conv's output, the input)
    double modelWaste = 0;  ///< padding waste ratio over every padded activation of the model
};

/// A dim's curve: what the drag editor draws, computed in core.
struct SweepResult {
    std::vector<SweepPoint> points; ///< ascending values
    std::string error;              ///< why the first rejected value was rejected; empty when all apply
    /// Some value other than the current one applies (false: the graph fixes the dim, e.g. a Split
    /// downstream fixes a conv's channels; `error` says how).
    bool movable = false;
};

/// Where a drag of the dim lands for `v`: `v` itself when every point of `r` applies (nothing says another
/// value would not), else the applying point nearest to `v` (the lower one on a tie). A model can refuse
/// values between points it takes (yolov8n's input H takes 185..192 and 217..224 but not 193..216, where an
/// upsampled map would miss its Concat partner): a drag lands only on values the curve saw apply.
int64_t dragValue(const SweepResult& r, int64_t v);
/// Some point of `r` was rejected: dragValue() moves values onto the applying ones.
bool dragSnaps(const SweepResult& r);

/// The values a sweep of `dim` over [lo, hi] visits, ascending: about `samples` evenly spaced multiples of
/// the dim's step, plus every alignment boundary and one step either side of it (where the padding jumps),
/// plus the current value.
std::vector<int64_t> sweepValues(const EditableDim& dim, int64_t lo, int64_t hi, int samples = 40);

/// How many points a curve over `g` may have: every point re-estimates the model (its passes run over every
/// node, and an input's H/W re-infers every shape), so the profile's sweep_node_budget (points x nodes)
/// bounds the curve's work on a big model; never fewer than kSweepMinPoints.
size_t sweepPointLimit(const TargetProfile& t, const Graph& g);

/// `values` (ascending, from sweepValues) thinned to at most `maxPoints`: both ends, the current value and
/// the rest evenly spread by index. Unchanged when they already fit.
std::vector<int64_t> limitSweepValues(const std::vector<int64_t>& values, int64_t current, size_t maxPoints);

/// Estimates the session with the dim set to each of `values`. The points are applied and reverted one
/// after the other on `s`, the caller's copy (an incremental re-estimate each way), so the graph is copied at
/// most once per sweep (when `s` still shares it), never per point. Reports progress per point; throws
/// Cancelled when `progress`'s flag is raised.
SweepResult sweep(Session s, const EditableDim& dim, const std::vector<int64_t>& values,
                  const Progress& progress = {});

} // namespace bpu
