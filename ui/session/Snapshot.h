// SPDX-License-Identifier: MIT
#pragma once

#include "core/advice/Objective.h"
#include "core/analysis/AnalysisFwd.h"
#include "core/cost/CostEstimate.h"
#include "core/cost/NodeDeltas.h"
#include "core/deploy/DeploySettings.h"
#include "core/edit/EditFwd.h"
#include "core/model/Completeness.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"
#include "core/util/Indirect.h"

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

namespace bpu::ui {

/// An edit of a project or of a reload's history that did not apply to the model as opened (its node renamed
/// or removed, a shape that no longer fits): kept aside rather than dropped - listed greyed in the What-if
/// panel with why, written back to the project on save, tried again when the project or model is opened
/// again, removed only by the user.
struct KeptEdit {
    EditPtr edit;
    QString reason; ///< why it did not apply
    QString origin; ///< the step it came from ("Edits from x.bpuscope")
};

/// Snapshot::baselineStep of a baseline that is no step of the history (a project's baseline edit list, or
/// the applied edits undone below it and changed since).
inline constexpr size_t kNotAStep = SIZE_MAX;

/// What the widgets show: an immutable copy of one state of the session, made on the worker and handed over
/// whole. Widgets read it and never reach into the live session.
struct Snapshot {
    // Out of line (Snapshot.cpp), where the analysis' types are complete: making, copying and dropping a
    // snapshot needs this header only.
    Snapshot();
    Snapshot(const Snapshot&);
    Snapshot(Snapshot&&) noexcept;
    Snapshot& operator=(const Snapshot&);
    Snapshot& operator=(Snapshot&&) noexcept;
    ~Snapshot();

    /// Copies in the session's analysis and the baseline's summary.
    void setAnalysis(const AnalysisResult& now, const AnalysisResult& baseline);

    /// The session's state within the model: a new value after every edit, undo, redo, target or deployment
    /// change; the same for a snapshot that only adds the finding gains. What a result computed for one state
    /// (the plan) checks before it is applied.
    uint64_t generation = 0;
    uint64_t modelId = 0; ///< changes with every model loaded (a reload too)
    QString modelPath;
    QString targetRequest; ///< the target as asked for (a built-in name or a profile path)
    std::shared_ptr<const Graph> graph;
    std::shared_ptr<const TargetProfile> target;
    DeploySettings deploy;      ///< how the board runs the model (docs/deployment.md)
    DeploySettings savedDeploy; ///< the deployment as last opened or saved (`clean` compares with it)
    Objective objective = Objective::Latency;      ///< what the findings rank by (Session::objective)
    /// Whether the figures rest on guessed shapes (Completeness.h), read off the graph on the worker: the
    /// banner, the status label and the drag editor show it without walking the graph on the GUI thread.
    Completeness completeness;
    Objective savedObjective = Objective::Latency; ///< as last opened or saved (`clean` compares with it)
    /// The input shapes the model was opened with beyond its deployment's (the shape prompt's answers): a
    /// reload opens it with them again.
    std::map<std::string, std::vector<int64_t>> openShapes;
    /// Behind a pointer (Indirect) so that this header names the analysis' types only: the files that read
    /// them include AnalysisResult.h, and a change to them does not recompile every widget.
    Indirect<AnalysisResult> analysis;
    CostEstimate cost;

    // The baseline the deltas are measured against: the model as loaded, or the state set with "Set
    // baseline", estimated on the same target as the current state.
    CostEstimate baseline;
    Indirect<AnalysisSummary> baselineSummary;
    /// The nodes against the baseline's, paired by name and per image (issue 63): what every per-node delta
    /// reads (hotspots, graph colouring, inspector).
    std::shared_ptr<const NodeDeltas> deltas;
    std::vector<double> baselineRowUs;  ///< per cost row of `cost` (matchingRowUs), for per-row deltas
    size_t baselineStep = 0; ///< history steps in the baseline (0: as loaded; kNotAStep: none of them)
    EditList baselineEdits;  ///< the baseline's edits from the model as loaded (a reload re-applies them)

    // The undo history.
    QStringList history;             ///< one label per step, oldest first
    size_t historyPosition = 0;      ///< steps applied (the rest can be redone)
    bool clean = true;               ///< the state is what was last saved (or loaded): `unsaved` is empty
    QStringList unsaved;             ///< what is not saved: "the edits (2 step(s) applied)", "the baseline"
    nlohmann::json savedBaseline;    ///< the baseline's edits as last saved (an array; empty: as loaded)
    std::vector<EditList> stepEdits; ///< the applied steps' edits (a reload re-applies them step by step)
    EditList edits;             ///< the applied edits in order, each drag as its last value (project files)
    std::vector<KeptEdit> kept; ///< edits kept aside: they did not apply (KeptEdit)

    bool findingsReady = false; ///< findings and their gains computed for this state
};

using SnapshotPtr = std::shared_ptr<const Snapshot>;

} // namespace bpu::ui

Q_DECLARE_METATYPE(bpu::ui::SnapshotPtr)
