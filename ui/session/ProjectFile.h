// SPDX-License-Identifier: MIT
#pragma once

#include "core/deploy/DeploySettings.h"
#include "core/io/ProjectJson.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <optional>

namespace bpu::ui {

/// A saved what-if session (`.bpuscope`, JSON): the model's path (relative to the project when it can be),
/// its content hash, the target, the deployment settings, and the applied edit list — the same list
/// `bpuscope-cli --edits` reads.
struct Project {
    QString modelPath; ///< absolute after load
    QString sha256;
    QString target;
    nlohmann::json edits = nlohmann::json::array();
    std::optional<DeploySettings> deploy; ///< unset in projects saved before deployments were recorded
    std::vector<ProjectKeptEdit> kept;    ///< edits that did not apply, kept aside (`edits_not_applied`)
    std::optional<Objective> objective;   ///< unset in projects saved before the objective was recorded
    size_t baselineEdits = 0; ///< the baseline holds the first N edits (0: as loaded); `baseline_edits`
    /// A baseline that is no prefix of `edits`: its own edit list from the model as loaded (`baseline_edits`
    /// as an array; ProjectData::baselineList).
    std::optional<nlohmann::json> baselineList;
};

/// SHA-256 of a file's content (hex), empty if unreadable.
QString fileSha256(const QString& path);
/// Writes atomically (QSaveFile) to `writeTo` (default `path`: the file a symlink at `path` names, from
/// checkedOutputPath), naming the model relative to `path`; returns an error message or empty.
QString saveProject(const QString& path, const Project& p, const QString& writeTo = {});
/// Reads and validates; throws std::runtime_error naming the file and the problem.
Project loadProject(const QString& path);

} // namespace bpu::ui
