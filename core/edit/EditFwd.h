// SPDX-License-Identifier: MIT
// The what-if edit as a value other layers can hold without the edit engine: a finding's fix, a report's
// edit list, a project's edits. Build edits with the kinds' constructors (OptionEdits.h, ShapeEdits.h) or
// editFromJson; apply them with Edit::apply / applyEditList (EditList.h).
#pragma once

#include <memory>
#include <vector>

namespace bpu {

class Edit;
/// Edits are immutable once built: one may be applied to many sessions, redone, or shared between threads.
using EditPtr = std::shared_ptr<const Edit>;
/// Edits in the order they apply, each to the result of the previous one.
using EditList = std::vector<EditPtr>;

} // namespace bpu
