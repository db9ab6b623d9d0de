// SPDX-License-Identifier: MIT
#pragma once

#include "core/util/Progress.h"

#include <QObject>
#include <QString>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

namespace bpu::ui {

/// The kinds of background work, one lane each: in a lane the newest request wins.
enum class JobLane {
    Load,        ///< opening a model
    Session,     ///< an operation on the live session (edit, undo, target switch) and its re-estimate
    Sweep,       ///< the drag editor's curve
    Layout,      ///< building the graph drawing
    Export,      ///< writing a report
    Compare,     ///< File > Compare With...: loading the other model and comparing
    Plan,        ///< the optimization plan (one re-estimate per step, on a copy of the session)
    ModelExport, ///< File > Export Edited Model: the changed model and its hb_compile config
};
constexpr int kJobLanes = 8;

/// How a job ended. Cancelled is an outcome of its own, not an error: a superseded or stopped job.
enum class JobOutcome { Done, Cancelled, Failed };

/// One job's handle: the cancel flag it must poll (through progress()) and its place in its lane.
class JobTicket {
public:
    JobTicket() = default;
    JobLane lane() const { return lane_; }
    uint64_t id() const { return id_; }
    bool valid() const { return id_ != 0; }
    /// True once the job was cancelled (superseded in its lane, or stopped by the user).
    bool cancelled() const { return cancel_ && cancel_->load(); }
    /// A Progress carrying the job's cancel flag (the core throws Cancelled when it is raised) and, when
    /// `report` is set, its progress callback.
    Progress progress(std::function<void(double, std::string_view)> report = {}) const;
    /// The flag itself, for work that polls it directly.
    std::shared_ptr<const std::atomic<bool>> flag() const { return cancel_; }

private:
    friend class JobTracker;
    JobLane lane_ = JobLane::Load;
    uint64_t id_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_;
};

/// The one place every background job of the workbench registers: loads, session operations and their
/// re-estimates, sweeps, graph layouts and report exports. Starting a job cancels the running one of the same
/// lane through its cancel flag (the core's Progress), and only the newest job of a lane is current: a stale
/// job's result is dropped by its owner. When the last job of every lane has finished, `settled` is emitted
/// (what the app, the tests and the bench wait for). GUI thread only; the tickets' flags are thread-safe.
class JobTracker : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    /// Raises every live job's cancel flag: a job still running on a worker stops at its next check.
    ~JobTracker() override;

    /// Registers a new job in `lane` and raises the cancel flag of the lane's older jobs still running: a
    /// load, sweep, layout or export stops; a session operation still applies its edit (it must, the ones
    /// queued after it build on it) but skips its optional work (finding gains) and its snapshot.
    JobTicket begin(JobLane lane);
    /// The job ended; returns whether it is still its lane's newest (its result is to be shown).
    bool finish(const JobTicket& t, JobOutcome outcome);
    /// Raises the cancel flag of the lane's running jobs (Cancel buttons).
    void cancel(JobLane lane);
    bool isCurrent(const JobTicket& t) const;
    bool isBusy(JobLane lane) const { return running_[size_t(lane)] > 0; }
    /// No job runs in any lane.
    bool isSettled() const;
    /// No job runs in any lane but the Sweep lane: the window shows everything asked of it except, maybe, a
    /// drag editor's curve, an extra that fills in when it lands (on a big model each of its points is a
    /// whole re-estimate).
    bool isShown() const;

signals:
    /// Every lane is idle: the window shows the outcome of everything asked of it.
    void settled();
    /// Every lane but the Sweep lane is idle (isShown): what a screenshot waits for.
    void shown();
    /// A lane went from idle to busy or back.
    void laneBusyChanged(bpu::ui::JobLane lane, bool busy);
    /// A job ended with `outcome` (for logs and tests).
    void jobFinished(bpu::ui::JobLane lane, bpu::ui::JobOutcome outcome);

private:
    std::array<uint64_t, kJobLanes> newest_{}; ///< id of the newest job per lane
    std::array<int, kJobLanes> running_{};     ///< jobs begun and not finished, per lane
    std::array<std::vector<std::shared_ptr<std::atomic<bool>>>, kJobLanes> live_{}; ///< running jobs' flags
    uint64_t next_ = 0;
};

} // namespace bpu::ui

Q_DECLARE_METATYPE(bpu::ui::JobLane)
Q_DECLARE_METATYPE(bpu::ui::JobOutcome)
