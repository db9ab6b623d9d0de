// SPDX-License-Identifier: MIT
#pragma once

#include "JobTracker.h"
#include "Snapshot.h"
#include "core/advice/OptimizationPlan.h"
#include "core/edit/EditableDims.h"
#include "core/edit/Sweep.h"
#include "core/io/EditedModelExport.h"

#include <QObject>
#include <QThreadPool>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bpu {
class Session;
}

namespace bpu::ui {

/// An edit the core refused: which one, why, and what the user was doing. Only that edit is dropped.
struct EditRejection {
    QString edit;      ///< the edit (Edit::describe)
    QString reason;    ///< why it does not apply
    QString action;    ///< the user's action it came from ("Fix: ...", "Edits from x.json", "drag")
    bool drag = false; ///< a step of a drag: the drag goes on from the last value that applied
};

/// One undo step to re-apply after a (re)load.
struct HistoryStep {
    QString label;
    EditList edits;
};

/// What to open and what to do with it once loaded.
struct OpenRequest {
    QString path;
    QString target = QStringLiteral("s100");
    /// Answers for input dims the file leaves open (`--input-shape`).
    std::map<std::string, std::vector<int64_t>> inputShapes;
    /// Steps to apply once loaded, each one undo step: a project's edits, an --edits file, or a reload's
    /// history. `lenient`: apply what fits and report the rest (projects, reload); else all or nothing.
    std::vector<HistoryStep> steps;
    bool lenient = false;
    /// After this many of `steps`, set the baseline there (a reload keeps the user's baseline); 0: as loaded.
    size_t baselineStep = 0;
    /// The state after `steps` is what a project saved: the window starts clean.
    bool clean = true;
    /// The project file this came from (empty for a model).
    QString projectPath;
    /// How the board runs the model (a project's or a reload's); unset: the default (--fast-perf).
    std::optional<DeploySettings> deploy;
    /// The deployment the saved state has, when not `deploy` (a reload after a deployment change): a state
    /// whose deployment differs from it is unsaved work.
    std::optional<DeploySettings> savedDeploy;
    /// Edits kept aside before (a project's, or the open model's on a reload): tried again after `steps`
    /// as one more step; those that still do not apply stay kept.
    std::vector<KeptEdit> kept;
    /// What the findings rank by (a project's, or a reload's); the state it had when saved, for `clean`.
    Objective objective = Objective::Latency;
    std::optional<Objective> savedObjective;
    /// A baseline that is no state of `steps` (a project's `baseline_edits` list, a reload's baseline after
    /// an undo below it): the model as loaded with these edits; replaces `baselineStep`.
    std::optional<EditList> baselineList;
    /// The baseline the saved state has (its edits as a project writes them, a reload's); unset: the one
    /// `steps` and `baselineStep` (or `baselineList`) make is the saved one.
    std::optional<nlohmann::json> savedBaseline;
};

/// What a report of the current state is built from, copied off the live session on the worker.
struct ReportSources {
    std::shared_ptr<Session> current; ///< a private copy: the report thread may estimate its finding gains
    bool gainsEstimated = false;      ///< `current` already carries its finding gains
    std::shared_ptr<const Session> baseline; ///< null when the current state is the baseline
    EditList edits;                          ///< from the baseline to the current state
    std::string baselineNote;                ///< what the baseline is when not the model as loaded
};

/// Owns the live what-if session of the open model and runs every operation on it on one worker thread
/// (so the session is never touched by two threads), publishing immutable snapshots to the GUI thread.
/// Every job is registered with the JobTracker: a newer request in a lane wins, and the stale job is
/// cancelled through the core's cancel flag (a superseded session operation still applies its edit, but
/// skips its finding gains and its snapshot). Every request is tied to the model it was made for: one
/// that arrives after another model opened is dropped, never applied to the new model.
class SessionController : public QObject {
    Q_OBJECT
public:
    SessionController(JobTracker* jobs, QObject* parent = nullptr);
    ~SessionController() override;

    /// Loads and analyses a model in the background, then applies the request's steps; `loaded` or
    /// `loadFailed` follows. The open model stays until the new one is ready, and for good when the load
    /// fails or is cancelled.
    void open(OpenRequest request);
    void cancelLoad();
    bool isLoading() const { return jobs_->isBusy(JobLane::Load); }

    /// Re-estimates the model and its baseline for another profile (a built-in name or a JSON path);
    /// `targetRejected` when it cannot load. A session-level setting, not an edit: no undo step.
    void setTarget(const QString& target);
    /// Another session-level setting (like the target, not an edit): `change` runs on the live session
    /// and on the baseline, and both are re-estimated. For settings such as the deployment.
    void reconfigure(std::function<void(Session&)> change);

    /// Applies `edits` as one undo step named `label` (all or nothing: a rejection names the edit), to the
    /// model `modelId` (the snapshot the request was made from).
    void apply(uint64_t modelId, EditList edits, const QString& label);
    /// One step of a drag of a control: merges into one undo step until `final`.
    void dragStep(uint64_t modelId, EditPtr edit, bool final);
    void undo();
    void redo();
    /// Undoes or redoes until `position` steps are applied (the history list).
    void goToStep(size_t position);
    /// Removes the edit kept aside at `index` of model `modelId`'s Snapshot::kept (the user let it go): the
    /// project no longer carries it once saved. Unsaved work, not an undo step.
    void removeKept(uint64_t modelId, size_t index);
    /// Makes the current state the baseline the deltas, the compare panel and reports measure against.
    void setBaseline();
    /// Writes the project (model path, hash, target, the applied edits) as the worker has them at this
    /// point of the queue, and marks that state saved; `done` gets an error message or empty.
    void saveProject(const QString& path, std::function<void(QString error)> done);

    /// The curve of `dim` over `values`, computed in core on a copy of the session off the worker; the newest
    /// sweep wins (an older one is cancelled). `done` runs on the GUI thread for the current sweep only.
    void sweep(uint64_t modelId, EditableDim dim, std::vector<int64_t> values,
               std::function<void(JobOutcome, const SweepResult&)> done);
    /// Builds the optimization plan of model `modelId`'s current state on a copy of the session (Plan lane:
    /// a newer request cancels the older), then calls `done` on the GUI thread unless superseded. `state` is
    /// the Snapshot::generation of the state the copy was taken at: the plan is that state's.
    using PlanDone = std::function<void(JobOutcome, std::shared_ptr<const OptimizationPlan>, uint64_t state,
                                        const QString& error)>;
    void plan(uint64_t modelId, PlanDone done);
    /// Writes model `modelId`'s current state as an ONNX model at `onnx` and, unless `yaml` is empty, its
    /// hb_compile config (core exportEditedModel) on a copy of the session in the background (ModelExport
    /// lane: a newer export cancels the older); `done` on the GUI thread with what was written or the error.
    using ExportDone =
        std::function<void(JobOutcome, std::shared_ptr<const EditedModelExport>, const QString& error)>;
    void exportModel(uint64_t modelId, const QString& onnx, const QString& yaml, ExportDone done);
    /// Copies what a report needs off the worker's session and hands it to `done` on the GUI thread (null
    /// sources without a model).
    void reportSources(std::function<void(std::shared_ptr<ReportSources>)> done);

    SnapshotPtr snapshot() const { return snapshot_; }
    bool hasModel() const { return live_ != nullptr; }
    /// The target in force (as asked for: a built-in name or a profile path).
    QString targetName() const { return target_; }
    /// The project the open state came from or was saved to, if any.
    QString projectPath() const { return projectPath_; }
    JobTracker* jobs() const { return jobs_; }

signals:
    void loadProgress(double fraction, const QString& stage);
    /// A model opened. `notApplied` lists the steps' edits that did not fit it (a project or reload on a
    /// model that changed), now kept aside (Snapshot::kept); `warnings` what the import left open
    /// (unresolved input dims).
    void loaded(const QString& path, const QStringList& notApplied, const QStringList& warnings);
    /// A load failed or was cancelled (then `outcome` is Cancelled and nothing is wrong); the previous model
    /// is still shown.
    void loadFailed(const QString& path, const QString& message, bpu::ui::JobOutcome outcome);
    void targetRejected(const QString& message);
    void snapshotChanged(bpu::ui::SnapshotPtr snapshot);
    void editRejected(const bpu::ui::EditRejection& rejection);
    /// An action changed nothing (a "fuse all" on a fused model): no undo step was recorded.
    void nothingChanged(const QString& action);

private:
    struct Live;
    enum class Gains { Estimate, Skip };
    /// Runs `op` on the worker for the current model as a Session-lane job, then publishes.
    void post(std::function<void(Live&)> op, Gains gains);
    /// Worker side: snapshots `live` for `ticket` and hands it to the GUI thread.
    void publish(const std::shared_ptr<Live>& live, const JobTicket& ticket, Gains gains);
    void runOnWorker(std::function<void()> job);
    /// What a copy of the session was taken at: the state counter (Snapshot::generation) and whether the
    /// findings' gains were estimated for it.
    struct CopyState {
        uint64_t state = 0;
        bool gainsFresh = false;
    };
    using CopyWork = std::function<void(Session& copy, const CopyState& at, const Progress& progress)>;
    /// A job in `lane` on a copy of model `modelId`'s session, taken on the worker in the queue's order and
    /// worked on in the background (a newer job in the lane cancels it); `done` runs on the GUI thread unless
    /// superseded, with the error of a failed `work`.
    void runOnCopy(uint64_t modelId, JobLane lane, CopyWork work,
                   std::function<void(JobOutcome, const QString& error)> done);
    void finishOnGui(const JobTicket& t, JobOutcome outcome);
    /// Worker side: the snapshot of `live` as it is now.
    static std::shared_ptr<Snapshot> makeSnapshot(Live& live);
    /// Worker side: applies a (re)load's steps to a fresh model.
    static void applySteps(Live& live, const OpenRequest& request, std::vector<EditRejection>& rejected);

    JobTracker* jobs_;
    QThreadPool worker_;         ///< the session's own thread: every operation on it, in order
    QThreadPool background_;     ///< sweeps and plans, on copies of the session
    std::shared_ptr<Live> live_; ///< the pointer is GUI-thread state; the Live it points to, worker state
    SnapshotPtr snapshot_;
    QString target_;
    QString projectPath_;
    uint64_t modelCount_ = 0;
};

} // namespace bpu::ui

Q_DECLARE_METATYPE(bpu::ui::EditRejection)
