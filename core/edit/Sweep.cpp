// SPDX-License-Identifier: MIT
#include "Sweep.h"

#include "Edit.h"
#include "EditError.h"
#include "Session.h"

#include <algorithm>

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

SweepResult sweep(Session s, const EditableDim& dim, const std::vector<int64_t>& values,
                  const Progress& progress) {
    // Each point is reverted before the next, so every point is measured from the state `s` came with.
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

} // namespace bpu
