// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QString>

namespace bpu::ui {

/// The inspector's rich text for one node: op, attributes, shapes real vs padded per dim with the rule
/// that padded them, MACs, bytes, intensity, latency and share, fusion group, placement and reason, the
/// findings that name it, and the profile parameters behind each number.
QString nodeDetailsHtml(const Snapshot& s, NodeId id);

} // namespace bpu::ui
