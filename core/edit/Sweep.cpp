// SPDX-License-Identifier: MIT
#include "Sweep.h"

#include "Edit.h"
#include "EditError.h"
#include "Session.h"
#include "core/analysis/AnalysisResult.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <algorithm>
#include <cmath>

namespace bpu {

std::vector<int64_t> sweepValues(const EditableDim& dim, int64_t lo, int64_t hi, int samples) {
    const int64_t step = std::max<int64_t>(1, dim.step);
    lo = std::max(step, (lo + step - 1) / step * step);
    hi = std::max(lo, hi);
    std::vector<int64_t> values;
    const int64_t stride = std::max(step, (hi - lo) / std::max(1, samples) / step * step);
    for (int64_t x = lo; x <= hi; x += stride)
        values.push_back(x);
    values.push_back(hi / step * step);
    // Where the padding jumps: each multiple of the unit (or power of two below it), and a step either side.
    auto boundary = [&](int64_t x) {
        for (int64_t v : {x - step, x, x + step})
            if (v >= lo && v <= hi && v % step == 0)
                values.push_back(v);
    };
    if (dim.unit > 1) {
        for (int64_t x = (lo + dim.unit - 1) / dim.unit * dim.unit; x <= hi; x += dim.unit)
            boundary(x);
        if (dim.powerOfTwo)
            for (int64_t x = 1; x < dim.unit && x <= hi; x <<= 1)
                boundary(x);
    }
    if (dim.current >= lo && dim.current <= hi)
        values.push_back(dim.current);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

size_t sweepPointLimit(const TargetProfile& t, const Graph& g) {
    const double budget = std::max(0.0, t.sweepNodeBudget.value);
    const double perNodes = budget / double(std::max<size_t>(1, g.nodes.size()));
    // A budget beyond any count of values is no limit (and must not overflow the conversion).
    if (perNodes >= double(SIZE_MAX / 2))
        return SIZE_MAX;
    return std::max(kSweepMinPoints, static_cast<size_t>(std::floor(perNodes)));
}

std::vector<int64_t> limitSweepValues(const std::vector<int64_t>& values, int64_t current, size_t maxPoints) {
    maxPoints = std::max(maxPoints, kSweepMinPoints);
    if (values.size() <= maxPoints)
        return values;
    std::vector<int64_t> out;
    out.reserve(maxPoints + 1);
    // maxPoints - 1 evenly spread picks by index (the first and the last included), then the current value.
    const size_t picks = maxPoints - 1;
    for (size_t k = 0; k < picks; ++k)
        out.push_back(values[k * (values.size() - 1) / (picks - 1)]);
    if (std::binary_search(values.begin(), values.end(), current))
        out.push_back(current);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

SweepResult sweep(Session s, const EditableDim& dim, const std::vector<int64_t>& values,
                  const Progress& progress) {
    // Each point is reverted before the next, so every point is measured from the state `s` came with. `s`
    // is this sweep's own copy: a cancel may stop it inside a point's re-estimate.
    s.setCancelFlag(progress.cancel);
    SweepResult out;
    out.points.reserve(values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        progress.checkCancel();
        progress(double(i) / double(values.size()), "sweep");
        SweepPoint p;
        p.value = values[i];
        UndoToken token;
        try {
            token = dim.at(p.value)->apply(s);
        } catch (const EditError& e) {
            if (out.error.empty())
                out.error = e.what();
            out.points.push_back(p); // rejected: the session is untouched
            continue;
        }
        p.applies = true;
        p.perImageMs = s.cost().perImageMs;
        p.modelWaste = s.analysis().summary.paddingWasteRatio;
        if (dim.tensor.value < s.analysis().tensors.size())
            p.tensorWaste = s.analysis().tensors[dim.tensor.value].padded.wasteRatio();
        token.revert(s);
        out.movable = out.movable || p.value != dim.current;
        out.points.push_back(p);
    }
    progress(1.0, "sweep");
    return out;
}

bool dragSnaps(const SweepResult& r) {
    bool applies = false, rejected = false;
    for (const SweepPoint& p : r.points)
        (p.applies ? applies : rejected) = true;
    return applies && rejected;
}

int64_t dragValue(const SweepResult& r, int64_t v) {
    if (!dragSnaps(r))
        return v;
    int64_t best = v, distance = -1;
    for (const SweepPoint& p : r.points) // ascending: the lower one wins a tie
        if (p.applies && (distance < 0 || std::llabs(p.value - v) < distance)) {
            best = p.value;
            distance = std::llabs(p.value - v);
        }
    return best;
}

} // namespace bpu
