// SPDX-License-Identifier: MIT
#pragma once

#include "core/metrics/NodeMetrics.h"
#include "core/model/Graph.h"

#include <QString>
#include <memory>

namespace bpu::ui {

/// What the GUI holds of one loaded model: the IR and its metrics, immutable once handed to the GUI thread.
struct LoadedModel {
    Graph graph;
    std::vector<NodeMetrics> metrics;
    ModelMetrics totals;
};

/// Summary of a loaded model as rich text for the main window (the same facts as `bpuscope-cli info`).
QString summaryHtml(const LoadedModel& m);

} // namespace bpu::ui
