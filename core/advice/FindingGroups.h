// SPDX-License-Identifier: MIT
// One change, one finding (issue 46): two rules that propose the same fix are one recommendation, and the
// many alike findings of one rule (a padded stage per shape, a group conv per weight shape) are one finding
// listing its occurrences.
#pragma once

#include "Finding.h"

#include <vector>

namespace bpu {

/// On ranked findings whose figures are estimated: merges the findings whose fixes are the same change into
/// the first of them (the larger gain keeps its rule; the others are listed in `also`), and likewise the
/// findings without a fix whose what-ifs are the same change (one tensor flagged by two rules, issue 62),
/// then groups the
/// findings of one rule and one kind of fix (the same edit kinds in the fix and in the what-if; a fix that
/// does not apply is a kind of its own) into the first of them: its fix, what-if and nodes are theirs
/// together, `occurrences` lists each as raised, and its figures are cleared. Returns the indices (after the
/// merge and the grouping) of the grouped findings, whose figures are to be re-estimated.
std::vector<size_t> mergeAndGroup(std::vector<Finding>& findings);

} // namespace bpu
