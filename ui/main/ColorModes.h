// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QString>
#include <memory>

namespace bpu {
struct Comparison;
}

namespace bpu::ui {

class NodeColoring;

enum class ColorMode { Placement, Padding, Intensity, Latency, Delta };

QString colorModeName(ColorMode m);
/// Parses "placement", "padding", "intensity", "latency", "delta".
bool parseColorMode(const QString& s, ColorMode* out);
/// The node colouring for a mode, from the snapshot's analysis and cost.
std::shared_ptr<const NodeColoring> makeColoring(ColorMode mode, const Snapshot& s);
/// The delta mode against another model (File > Compare With...): each node of the open model coloured by how
/// much slower (red) or faster (green) its counterpart in `otherName` is; unmatched nodes are unchanged grey.
std::shared_ptr<const NodeColoring> makeComparisonColoring(const Comparison& c, const Snapshot& s,
                                                           const QString& otherName);

} // namespace bpu::ui
