// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisResult.h"
#include "core/edit/EditFwd.h"
#include "core/cost/CostEstimate.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <nlohmann/json.hpp>

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <memory>

namespace bpu::ui {

/// What the widgets show: an immutable copy of one state of the session, handed over whole from the
/// worker. Widgets read it and never reach into the live session.
struct Snapshot {
    uint64_t generation = 0;
    uint64_t modelId = 0;           ///< changes with every model loaded
    QString modelPath;
    std::shared_ptr<const Graph> graph;
    std::shared_ptr<const TargetProfile> target;
    AnalysisResult analysis;
    CostEstimate cost;
    CostEstimate baseline;          ///< before any edit (or at the last "set baseline")
    AnalysisSummary baselineSummary;
    std::vector<double> baselineNodeUs; ///< per node, for per-node deltas
    QStringList editHistory;
    EditList edits;                 ///< the applied edit list, in order (project files)
    bool findingsReady = false;     ///< findings and their gains computed for this state
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

} // namespace bpu::ui

Q_DECLARE_METATYPE(bpu::ui::SnapshotPtr)
