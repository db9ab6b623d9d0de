// SPDX-License-Identifier: MIT
#pragma once

#include "EditCost.h"
#include "EditFwd.h"
#include "UndoToken.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace bpu {

class EditContext;
class Session;

/// A what-if edit: an immutable description of one change to a session's graph or analysis options. The
/// kinds are listed in EditRegistry.cpp; the JSON form is the vocabulary shared by `--edits`, project files,
/// the GUI and findings' fixes (docs/edits.md), and is written only at I/O.
class Edit {
public:
    virtual ~Edit() = default;

    /// Applies the edit and re-estimates the session; returns what reverts it. Throws EditError for an
    /// illegal edit, leaving the session exactly as it was (applyEditList of this one edit).
    UndoToken apply(Session& s) const;

    /// {"op": ..., ...} as read by editFromJson.
    virtual nlohmann::json toJson() const = 0;
    /// One line for the edit history ("set_group node=conv5 group=4"). A list longer than `maxListItems`
    /// prints its count, its first `maxListItems` items and how many more ("nodes=[114: a, b, c, ... 111
    /// more]"), for labels and the report; the default prints every item, so the text identifies the edit
    /// (Session uses it as a cache key).
    virtual std::string describe(size_t maxListItems = SIZE_MAX) const;
    /// For merging consecutive steps of one control (a drag) into one undo step: same key = same target,
    /// and the later edit sets an absolute value that supersedes the earlier one.
    virtual std::string mergeKey() const { return {}; }
    /// An idealized edit (assume_*, fuse/unfuse, fuse_all, filter_outputs) has no form a model owner can
    /// give the model or its compile config: its effect is the cost of a waste (a what-if), never a fix's
    /// gain, and the optimization plan refuses it (issue 45).
    virtual bool idealized() const { return false; }
    /// What making this change costs besides time (a concrete edit's; none for an idealized one).
    virtual EditCosts costs() const { return {}; }

protected:
    friend UndoToken applyEditList(Session&, const EditList&);
    /// Makes the change through `ctx` without re-estimating (the caller re-estimates once for a whole list).
    /// Throws EditError naming the problem; what it changed before throwing is undone by the caller.
    virtual void change(EditContext& ctx) const = 0;
};

} // namespace bpu
