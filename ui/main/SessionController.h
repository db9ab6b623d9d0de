// SPDX-License-Identifier: MIT
#pragma once

#include "Snapshot.h"

#include <QObject>
#include <QThreadPool>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bpu {
class Session;
class Edit;
} // namespace bpu

class QUndoStack;

namespace bpu::ui {

/// What a report of the current state is built from, copied off the live session on the worker: the model
/// as edited and as loaded (null when no edit is applied), with the applied edit list.
struct ReportSources {
    std::shared_ptr<Session> current; ///< a private copy: the report thread may estimate its finding gains
    bool gainsEstimated = false;      ///< `current` already carries its finding gains
    std::shared_ptr<const Session> baseline;
    EditList edits;
};

/// Owns the live what-if session and runs every operation on it on one worker thread (serialised, so the
/// session is never touched by two threads), publishing immutable snapshots to the GUI thread. Every request
/// carries a generation; a snapshot older than the newest request is dropped, so dragging never builds a
/// backlog. Jobs capture the session they were queued for, so a model opened meanwhile never receives
/// another model's edits.
class SessionController : public QObject {
    Q_OBJECT
public:
    explicit SessionController(QObject* parent = nullptr);
    ~SessionController() override;

    /// Loads and analyses a model in the background; `loaded` or `failed` follows. The current model stays
    /// until the new one is ready, and stays for good when the load fails or is cancelled.
    void open(const QString& path, const QString& target);
    void cancelLoad();
    bool isLoading() const { return loading_; }
    /// Re-estimates for another profile (built-in name or a JSON path); `targetRejected` when it cannot load.
    void setTarget(const QString& target);

    /// Applies / reverts an edit (owned by the undo command) on the worker. `reason` of a rejected apply
    /// arrives through editRejected and the undo stack entry is dropped by the caller.
    void applyEdit(EditPtr edit, bool final = true);
    void revertEdit(EditPtr edit);
    /// Makes the current state the baseline the status bar and compare panel measure against.
    void setBaseline();

    /// Runs `work` on the current session in the worker and hands the result to `done` on the GUI thread
    /// (used for previews: the drag curve, what-if sweeps). `work` must not keep the reference; when it
    /// throws, `done` gets an invalid QVariant.
    void preview(std::function<QVariant(const Session&)> work, std::function<void(QVariant)> done);
    /// Copies what a report needs off the worker's session and hands it to `done` on the GUI thread; nothing
    /// happens without a model.
    void reportSources(std::function<void(std::shared_ptr<ReportSources>)> done);

    SnapshotPtr snapshot() const { return snapshot_; }
    QUndoStack* undoStack() const { return undo_; }
    QString targetName() const { return target_; }
    bool hasModel() const { return live_ != nullptr; }

signals:
    void loadProgress(double fraction, const QString& stage);
    void loaded(const QString& path);
    /// A load failed ("cancelled" when the user cancelled it); the previous model is still shown.
    void failed(const QString& message);
    void targetRejected(const QString& message);
    void snapshotChanged(bpu::ui::SnapshotPtr snapshot);
    void editRejected(const QString& reason);
    void busyChanged(bool busy);

private:
    struct Live;
    /// Worker side: snapshots `live` for request `gen` and hands it to the GUI thread.
    void publish(const std::shared_ptr<Live>& live, uint64_t gen, bool withFindings);
    void runOnWorker(std::function<void()> job);
    void finishLoad(uint64_t loadGen);

    QThreadPool worker_;
    std::shared_ptr<Live> live_; ///< the pointer is GUI-thread state; the Live it points to, worker state
    SnapshotPtr snapshot_;
    CostEstimate baseline_;
    AnalysisSummary baselineSummary_;
    std::vector<double> baselineNodeUs_;
    QStringList history_;
    QString path_, target_;
    QUndoStack* undo_ = nullptr;
    std::atomic<uint64_t> requested_{0};
    std::shared_ptr<std::atomic<bool>> cancel_;
    uint64_t loadGen_ = 0; ///< the newest open(); older loads' outcomes are ignored
    bool loading_ = false;
    uint64_t modelId_ = 0;
};

} // namespace bpu::ui
