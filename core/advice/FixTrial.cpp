// SPDX-License-Identifier: MIT
#include "FixTrial.h"

#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/edit/UndoToken.h"

#include <algorithm>

namespace bpu {

FixTrial tryEdits(Session& s, const EditList& edits, double perImageMsBefore) {
    // MACs per image (a batch edit multiplies them per inference, not per image); parameters per model.
    const auto macsPerImage = [&] {
        return s.analysis().totals.macs / std::max(1, s.cost().batch);
    };
    const int64_t macsBefore = macsPerImage(), paramsBefore = s.analysis().totals.params;
    // One re-estimate for the whole list, however many edits it holds (a placement override per CPU node),
    // and one for its revert.
    UndoToken token = applyEditList(s, edits);
    // Per image: a batch edit changes how many images one inference serves.
    const CostEstimate& c = s.cost();
    FixTrial t;
    t.gainMs = perImageMsBefore - c.perImageMs;
    t.latencyMs = c.latencyMs;
    t.perImageMs = c.perImageMs;
    t.fps = c.fps;
    t.batch = c.batch;
    t.macsChange = macsPerImage() - macsBefore;
    t.paramsChange = s.analysis().totals.params - paramsBefore;
    token.revert(s);
    return t;
}

} // namespace bpu
