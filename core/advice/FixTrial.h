// SPDX-License-Identifier: MIT
#pragma once

#include "core/edit/EditFwd.h"
#include "core/util/Progress.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace bpu {

class Graph;
class Session;
struct Finding;
struct GuessedTime;
struct PricedTime;

/// What an edit list does, tried on a session and reverted (the fix trials, the fix searches).
struct FixTrial {
    double gainMs = 0;     ///< per-image latency saved (negative: the change makes each image slower)
    double latencyMs = 0;  ///< one inference after the change (of the whole batch when it batches)
    double perImageMs = 0; ///< per image after the change
    double fps = 0;        ///< images per second after the change, one thread
    double fpsGain = 0;    ///< images per second with two threads, after minus before
    int batch = 1;
    int64_t macsChange = 0;   ///< per image, after minus before
    int64_t paramsChange = 0; ///< after minus before
    /// The part of gainMs on nodes whose output shape nobody knows (GuessedTime.h): a guess. Zero on a
    /// complete result.
    double gainOnGuessesMs = 0;
    /// The profile keys pricing at least half of the time the change moved (keysCarryingChange): what its
    /// gain rests on (issue 62). Empty when not measured.
    std::vector<std::string> restsOnKeys;
};

/// What applying `edits` does to `s`, its gain measured against `perImageMsBefore` (the session's latency
/// per image now); the edits are reverted before it returns. Throws EditError / EditListError (the session
/// untouched) if they do not apply. Run it inside Session::tryInPlace, which sets the findings aside.
/// `guessed` is the session's GuessedTime now (null: not measured); `priced` its PricedTime now in the
/// session's objective (null: restsOnKeys not measured).
FixTrial tryEdits(Session& s, const EditList& edits, double perImageMsBefore,
                  const GuessedTime* guessed = nullptr, double fpsBefore = 0,
                  const PricedTime* priced = nullptr);

/// Why an edit list did not apply.
struct TrialRefusal {
    std::string why;        ///< a one-edit list: the reason alone; a longer one names the edit
    std::string brokenNode; ///< the downstream node the change breaks (EditError::brokenNode), if that is why
};

/// A trial's measurement, or why its list did not apply.
using TrialOutcome = std::variant<FixTrial, TrialRefusal>;

/// Each of `lists` tried on `s` in turn (one Session::tryInPlace: the findings set aside, each list applied,
/// measured against the latency per image now and reverted). Throws Cancelled when `progress`'s flag is set
/// between trials; the session ends as it began either way.
std::vector<TrialOutcome> tryEach(Session& s, const std::vector<const EditList*>& lists,
                                  const Progress& progress);

/// Why a change does not apply, with the size the export traced behind the node it breaks when there is one
/// (issue 61: a new batch meets a Resize to traced sizes further down; a node that breaks on its own
/// constant, a Reshape's target, is named by `no.why` already). The sizes go to `evidence["baked_sizes"]`.
std::string refusalText(const Graph& g, const TrialRefusal& no, nlohmann::json& evidence);

/// Removes the findings `drop` marks, keeping the others in order.
void dropMarked(std::vector<Finding>& findings, const std::vector<bool>& drop);

} // namespace bpu
