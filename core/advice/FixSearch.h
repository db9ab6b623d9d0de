// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/Progress.h"

namespace bpu {

class Session;

/// Chooses the fix of every finding of `s` that has candidates (Finding::fixSearch): each candidate is
/// tried on the session and reverted, the choice becomes the finding's fix (scored after by the fix trials
/// like any other) and every candidate's figures or reason for not applying go to its evidence. A finding
/// whose search offers nothing is dropped. Throws Cancelled when `progress`'s flag is set between trials.
void searchFixes(Session& s, const Progress& progress);

} // namespace bpu
