// SPDX-License-Identifier: MIT
#pragma once

#include "Snapshot.h"

#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <unordered_set>

namespace bpu {
class Session;
class Edit;
} // namespace bpu

class QUndoStack;

namespace bpu::ui {

/// Owns the live what-if session on one worker thread (operations are serialised there, so the session is
/// never touched by two threads) and publishes immutable snapshots to the GUI thread. Every request carries
/// a generation; a snapshot older than the newest request is dropped, so dragging never builds a backlog.
class SessionController : public QObject {
    Q_OBJECT
public:
    explicit SessionController(QObject* parent = nullptr);
    ~SessionController() override;

    /// Loads and analyses a model in the background; `loaded` or `failed` follows. The current model stays
    /// until the new one is ready.
    void open(const QString& path, const QString& target);
    void cancelLoad();
    bool isLoading() const { return loading_; }
    /// Re-estimates for another profile (built-in name or a JSON path).
    void setTarget(const QString& target);

    /// Applies / reverts an edit (owned by the undo command) on the worker. `reason` of a rejected apply
    /// arrives through editRejected and the undo stack entry is dropped by the caller.
    void applyEdit(std::shared_ptr<Edit> edit, bool final = true);
    void revertEdit(std::shared_ptr<Edit> edit);
    /// Makes the current state the baseline the status bar and compare panel measure against.
    void setBaseline();

    /// Runs `work` on a copy of the current session in the worker and hands the result to `done` on the
    /// GUI thread (used for previews: the drag curve, what-if sweeps).
    void preview(std::function<QVariant(const Session&)> work, std::function<void(QVariant)> done);

    SnapshotPtr snapshot() const { return snapshot_; }
    QUndoStack* undoStack() const { return undo_; }
    QString targetName() const { return target_; }

signals:
    void loadProgress(double fraction, const QString& stage);
    void loaded(const QString& path);
    void failed(const QString& message);
    void snapshotChanged(bpu::ui::SnapshotPtr snapshot);
    void editRejected(const QString& reason);
    void busyChanged(bool busy);

private:
    void publish(bool withFindings);
    void runOnWorker(std::function<void()> job);

    QThreadPool worker_;
    std::shared_ptr<Session> session_; ///< touched only by worker jobs
    SnapshotPtr snapshot_;
    std::shared_ptr<const Graph> publishedGraph_; ///< reused while only options change
    CostEstimate baseline_;
    AnalysisSummary baselineSummary_;
    std::vector<double> baselineNodeUs_;
    QStringList history_;
    QString path_, target_;
    QUndoStack* undo_ = nullptr;
    std::unordered_set<const Edit*> applied_; ///< worker-side: edits whose apply succeeded
    std::vector<std::shared_ptr<Edit>> appliedOrder_; ///< worker-side, in order
    std::atomic<uint64_t> requested_{0};
    std::shared_ptr<std::atomic<bool>> cancel_;
    bool loading_ = false;
    uint64_t modelId_ = 0;
};

} // namespace bpu::ui
