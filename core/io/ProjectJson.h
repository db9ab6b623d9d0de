// SPDX-License-Identifier: MIT
#pragma once

#include "core/advice/Objective.h"
#include "core/deploy/DeploySettings.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace bpu {

/// An edit of a project that did not apply to the model when it was last open (its node renamed or removed):
/// kept aside under `edits_not_applied`, written back unchanged, tried again at the next open (issue 50).
struct ProjectKeptEdit {
    nlohmann::json edit; ///< the edit as `edits` holds one ({"op": ...})
    std::string reason;  ///< why it did not apply, when last tried
    std::string from;    ///< the step it came from
};

/// A saved what-if session (`.bpuscope`, schema bpuscope.project/1) as read from its JSON: the model path
/// as written (relative to the project file when it could be), its SHA-256, the target, the deployment
/// settings and the edit list.
struct ProjectData {
    std::string model;
    std::string sha256; ///< 64 lower-case hex digits, or empty when the project did not record one
    std::string target = "s100";
    nlohmann::json edits = nlohmann::json::array();
    /// How the board runs the model (Model > Deployment). Absent in projects saved before it was recorded:
    /// those open with the default (hb_compile --fast-perf), as they did when they were saved.
    std::optional<DeploySettings> deploy;
    std::vector<ProjectKeptEdit> kept; ///< `edits_not_applied`: edits kept aside (ProjectKeptEdit)
    /// What the findings rank by (`objective`: "latency" or "throughput"); absent in projects saved before
    /// it was recorded: those open with latency.
    std::optional<Objective> objective;
    /// `baseline_edits` (issue 63): the deltas' baseline is the model with the first N of `edits` applied;
    /// absent or 0: the model as loaded.
    size_t baselineEdits = 0;
    /// `baseline_edits` as an edit list: a baseline whose edits `edits` does not start with (set, then
    /// undone below and edited otherwise), applied to the model as loaded. Each entry an object; the edits
    /// themselves are read where `edits` are.
    std::optional<nlohmann::json> baselineList;
};

/// Validates a parsed project document; throws FileError naming `file` and the key.
ProjectData parseProject(const nlohmann::json& doc, const std::string& file);

/// Reads a project file safely (regular file, size limit, JSON) and parses it; throws FileError.
ProjectData readProjectFile(const std::string& path);

} // namespace bpu
