// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

namespace bpu::ui {

/// A keyboard step along the graph's edges from the selected node (Alt+arrows in the graph view).
enum class NavStep {
    Down,     ///< to its first consumer
    Up,       ///< to the producer of its first input that comes from a node (weights have none)
    Next,     ///< to the next consumer of that producer (wrapping)
    Previous, ///< to the previous one
};

/// The node one `step` away from `from` in `g`; invalid when there is none (a model input or output, a node
/// without siblings). Pure graph logic, kept out of the view so it is testable without widgets.
NodeId graphNeighbour(const Graph& g, NodeId from, NavStep step);

} // namespace bpu::ui
