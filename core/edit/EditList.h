// SPDX-License-Identifier: MIT
// Applying edit lists, and the edit vocabulary's JSON form (read at I/O: --edits files, projects).
#pragma once

#include "Edit.h"
#include "EditError.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace bpu {

class Session;

/// An edit of a list that does not apply: which one (0-based index, its describe()) and why. what() reads
/// "edit N (set_group node=conv2 group=3): group 3 does not divide ..." with N counted from 1.
class EditListError : public EditError {
public:
    EditListError(size_t index, std::string edit, std::string reason, std::string brokenNode = {});
    size_t index() const { return index_; }
    const std::string& edit() const { return edit_; }
    const std::string& reason() const { return reason_; }

private:
    size_t index_;
    std::string edit_, reason_;
};

/// Applies `edits` in order as one atomic step with one re-estimate at the end (used by the CLI's
/// --edits, projects, finding fixes and the GUI alike). When an edit does not apply, nothing of the list
/// stays: the session is exactly as before and EditListError names the edit. The token reverts the list.
UndoToken applyEditList(Session& s, const EditList& edits);

/// Parses one edit ({"op": ..., ...}); throws EditError naming the problem (unknown op, missing or
/// mistyped field). Unknown keys are ignored, so files written by a newer version still read.
EditPtr editFromJson(const nlohmann::json& j);
/// Parses {"edits": [...]} or a bare array; an error names the edit ("edit 3: ...").
EditList editListFromJson(const nlohmann::json& doc);
/// {"edits": [...]}, the form editListFromJson and `--edits` read.
nlohmann::json editListToJson(const EditList& edits);
/// Reads an edit file; throws std::runtime_error naming the file. A project file given as one (its `edits`)
/// may hold edits the workbench kept aside (`edits_not_applied`): they are not read, and `notes` (when given)
/// says how many, naming the file.
EditList loadEditFile(const std::string& path, std::vector<std::string>* notes = nullptr);
/// The list with each run of edits of one control (the same non-empty mergeKey, the steps of a drag)
/// reduced to its last step: those edits set absolute values, so the result applies to the same state.
EditList netEdits(const EditList& edits);

} // namespace bpu
