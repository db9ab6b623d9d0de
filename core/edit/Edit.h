// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace bpu {

class Session;

/// A what-if edit as a command: apply() changes the session (graph or analysis options) and re-estimates,
/// revert() restores it exactly. apply() throws EditError for an illegal edit, leaving the session untouched.
/// The JSON form is the edit vocabulary shared by `--edits`, project files and the GUI (docs/edits.md).
class Edit {
public:
    virtual ~Edit() = default;
    virtual void apply(Session& s) = 0;
    virtual void revert(Session& s) = 0;
    /// {"op": ..., ...} as read by editFromJson.
    virtual nlohmann::json toJson() const = 0;
    /// One line for the edit history ("set_group conv5 -> 4").
    virtual std::string describe() const;
    /// For merging consecutive drags of one control into a single undo step: same key = same target.
    virtual std::string mergeKey() const { return {}; }
};

/// Parses one edit; throws EditError naming the problem (unknown op, missing or mistyped field).
std::unique_ptr<Edit> editFromJson(const nlohmann::json& j);
/// Parses {"edits": [...]} (or a bare array).
std::vector<std::unique_ptr<Edit>> editsFromJson(const nlohmann::json& doc);
/// Reads an edit file; throws std::runtime_error naming the file.
std::vector<std::unique_ptr<Edit>> loadEditFile(const std::string& path);

} // namespace bpu
