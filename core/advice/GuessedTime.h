// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <unordered_map>

namespace bpu {

class Session;

/// The estimated time per image of the nodes whose output shape nobody knows (shapeGuessed, Completeness.h),
/// by node name, so that it compares across an edit that renumbers nodes. Empty on a complete result.
/// Issue 61: a gain that comes from these nodes is a guess, and no finding or plan step rests on one.
struct GuessedTime {
    std::unordered_map<std::string, double> usByName;
    bool empty() const { return usByName.empty(); }
};

GuessedTime guessedTime(const Session& s);

/// How much of the change from `before` to `s` as it is now happened on guessed nodes, ms per image saved
/// (negative: they got slower; a guessed node the change removed counts its whole time). Zero
/// when `before` is empty and nothing is guessed now.
double gainOnGuessesMs(const GuessedTime& before, const Session& s);

} // namespace bpu
