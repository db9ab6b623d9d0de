// SPDX-License-Identifier: MIT
#include "SessionController.h"

#include "core/edit/EditList.h"
#include "core/edit/EditError.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QMetaObject>
#include <QUndoStack>
#include <QVariant>
#include <algorithm>
#include <unordered_map>

namespace bpu::ui {

/// One loaded model on the worker: the session, what was applied to it, and the session as loaded.
struct SessionController::Live {
    explicit Live(Session s)
        : session(std::move(s))
        , pristine(std::make_shared<const Session>(session)) {}
    Session session;
    std::shared_ptr<const Session> pristine;  ///< before any edit: the report's baseline
    std::unordered_map<const Edit*, UndoToken> applied; ///< edits whose apply succeeded, with their undo
    EditList order;                                      ///< the same, in order
    bool gainsFresh = false;                  ///< the findings' gains match the session's state
};


SessionController::SessionController(QObject* parent)
    : QObject(parent)
    , undo_(new QUndoStack(this)) {
    qRegisterMetaType<SnapshotPtr>();
    worker_.setMaxThreadCount(1); // one worker: session operations are serialised
    worker_.setExpiryTimeout(-1);
}

SessionController::~SessionController() {
    cancelLoad();
    worker_.clear();
    worker_.waitForDone();
}

void SessionController::runOnWorker(std::function<void()> job) {
    worker_.start([job = std::move(job)] { job(); });
}

void SessionController::finishLoad(uint64_t loadGen) {
    if (loadGen != loadGen_)
        return;
    loading_ = false;
    emit busyChanged(false);
}

void SessionController::open(const QString& path, const QString& target) {
    cancelLoad();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    const uint64_t load = ++loadGen_;
    loading_ = true;
    emit busyChanged(true);
    auto cancel = cancel_;
    runOnWorker([this, path, target, cancel, load] {
        try {
            ImportOptions opt;
            opt.progress.cancel = cancel.get();
            opt.progress.report = [this](double f, std::string_view stage) {
                emit loadProgress(0.8 * f, QString::fromUtf8(stage.data(), static_cast<int>(stage.size())));
            };
            Graph g = ModelImporter::load(path.toStdString(), opt);
            auto profile = std::make_shared<const TargetProfile>(loadTargetProfile(target.toStdString()));
            emit loadProgress(0.85, QStringLiteral("analysis"));
            opt.progress.checkCancel();
            Session session(std::move(g), profile);
            emit loadProgress(0.95, QStringLiteral("finding gains"));
            opt.progress.checkCancel();
            session.estimateFindingGains();
            opt.progress.checkCancel();
            auto live = std::make_shared<Live>(std::move(session));
            live->gainsFresh = true;
            QMetaObject::invokeMethod(this, [this, live, path, target, cancel, load] {
                if (load != loadGen_)
                    return; // superseded by a newer open(), which reports for itself
                if (cancel->load()) {
                    // Cancelled after the last check: the old model stays, as promised.
                    finishLoad(load);
                    emit failed(tr("cancelled"));
                    return;
                }
                live_ = live;
                path_ = path;
                target_ = target;
                history_.clear();
                undo_->clear();
                baseline_ = live->session.cost();
                baselineSummary_ = live->session.analysis().summary;
                baselineNodeUs_.clear();
                for (const auto& n : baseline_.nodes)
                    baselineNodeUs_.push_back(n.latencyUs);
                ++modelId_;
                const uint64_t gen = ++requested_;
                runOnWorker([this, live, gen] { publish(live, gen, true); });
                finishLoad(load);
                emit loaded(path);
            });
        } catch (const Cancelled&) {
            QMetaObject::invokeMethod(this, [this, load] {
                if (load != loadGen_)
                    return;
                finishLoad(load);
                emit failed(tr("cancelled"));
            });
        } catch (const std::exception& e) {
            const QString msg = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, msg, load] {
                if (load != loadGen_)
                    return;
                finishLoad(load);
                emit failed(msg);
            });
        }
    });
}

void SessionController::cancelLoad() {
    if (cancel_)
        cancel_->store(true);
}

void SessionController::setTarget(const QString& target) {
    auto live = live_;
    if (!live)
        return;
    const uint64_t gen = ++requested_;
    runOnWorker([this, live, target, gen] {
        try {
            auto profile = std::make_shared<const TargetProfile>(loadTargetProfile(target.toStdString()));
            live->session.setTarget(profile);
            live->gainsFresh = false;
            QMetaObject::invokeMethod(this, [this, live, target] {
                if (live == live_)
                    target_ = target;
            });
            publish(live, gen, true);
        } catch (const std::exception& e) {
            const QString msg = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, msg] { emit targetRejected(msg); });
            publish(live, gen,
                    true); // unchanged, but earlier snapshots may have been dropped for this request
        }
    });
}

void SessionController::applyEdit(EditPtr edit, bool final) {
    auto live = live_;
    if (!live)
        return;
    const uint64_t gen = ++requested_;
    runOnWorker([this, live, edit, final, gen] {
        try {
            live->applied[edit.get()] = edit->apply(live->session);
            live->order.push_back(edit);
            live->gainsFresh = false;
            const QString line = QString::fromStdString(edit->describe());
            QMetaObject::invokeMethod(this, [this, live, line] {
                if (live == live_)
                    history_.append(line);
            });
            publish(live, gen, final);
        } catch (const std::exception& e) {
            // EditError by contract; anything else the core throws is reported the same way, never fatal.
            const QString msg = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, live, msg] {
                if (live == live_)
                    emit editRejected(msg);
            });
        }
    });
}

void SessionController::revertEdit(EditPtr edit) {
    auto live = live_;
    if (!live)
        return;
    const uint64_t gen = ++requested_;
    runOnWorker([this, live, edit, gen] {
        auto it = live->applied.find(edit.get());
        if (it == live->applied.end()) {
            // Never applied (rejected): nothing to revert, but earlier snapshots may have been dropped as
            // stale in favour of this request, so publish the state as it is.
            publish(live, gen, true);
            return;
        }
        it->second.revert(live->session);
        live->applied.erase(it);
        live->order.erase(std::remove(live->order.begin(), live->order.end(), edit), live->order.end());
        live->gainsFresh = false;
        QMetaObject::invokeMethod(this, [this, live] {
            if (live == live_ && !history_.isEmpty())
                history_.removeLast();
        });
        publish(live, gen, true);
    });
}

void SessionController::setBaseline() {
    auto live = live_;
    if (!snapshot_ || !live)
        return;
    baseline_ = snapshot_->cost;
    baselineSummary_ = snapshot_->analysis.summary;
    baselineNodeUs_.clear();
    for (const auto& n : baseline_.nodes)
        baselineNodeUs_.push_back(n.latencyUs);
    const uint64_t gen = ++requested_;
    runOnWorker([this, live, gen] { publish(live, gen, false); });
}

void SessionController::preview(std::function<QVariant(const Session&)> work,
                                std::function<void(QVariant)> done) {
    auto live = live_;
    if (!live)
        return;
    runOnWorker([this, live, work = std::move(work), done = std::move(done)] {
        QVariant v;
        try {
            v = work(live->session);
        } catch (const std::exception&) {
            v = QVariant(); // a preview is best effort: an empty result keeps the control's previous curve
        }
        QMetaObject::invokeMethod(this, [done, v] { done(v); });
    });
}

void SessionController::reportSources(std::function<void(std::shared_ptr<ReportSources>)> done) {
    auto live = live_;
    if (!live)
        return;
    runOnWorker([this, live, done = std::move(done)] {
        auto src = std::make_shared<ReportSources>();
        try {
            src->current = std::make_shared<Session>(live->session);
            src->gainsEstimated = live->gainsFresh;
            if (!live->order.empty()) {
                // The baseline is the model as loaded, on the target the edited model is reported for.
                if (live->pristine->targetPtr() != live->session.targetPtr()) {
                    auto retargeted = std::make_shared<Session>(*live->pristine);
                    retargeted->setTarget(live->session.targetPtr());
                    live->pristine = std::move(retargeted);
                }
                src->baseline = live->pristine;
            }
            src->edits = netEdits(live->order);
        } catch (const std::exception&) {
            src = std::make_shared<ReportSources>(); // no current session: the caller reports the failure
        }
        QMetaObject::invokeMethod(this, [done, src] { done(src); });
    });
}

void SessionController::publish(const std::shared_ptr<Live>& live, uint64_t gen, bool withFindings) {
    // Runs on the worker. Skip the expensive finding gains when a newer request is already queued: its own
    // snapshot will carry them, and this one is dropped as stale.
    auto snap = std::make_shared<Snapshot>();
    snap->generation = gen;
    Session& s = live->session;
    if (withFindings && gen == requested_.load()) {
        if (!live->gainsFresh) {
            s.estimateFindingGains();
            live->gainsFresh = true;
        }
        snap->findingsReady = true;
    } else {
        s.findings();
    }
    snap->graph = s.sharedGraph(); // copy-on-write: the session copies it only at its next graph edit
    snap->target = s.targetPtr();
    snap->analysis = s.analysis();
    snap->cost = s.cost();
    snap->edits = netEdits(live->order);
    QMetaObject::invokeMethod(this, [this, live, snap] {
        if (live != live_)
            return; // another model was opened meanwhile
        if (snap->generation < requested_.load() && !snap->findingsReady)
            return; // stale: a newer state is on its way
        snap->modelPath = path_;
        snap->modelId = modelId_;
        snap->baseline = baseline_;
        snap->baselineSummary = baselineSummary_;
        snap->baselineNodeUs = baselineNodeUs_;
        snap->editHistory = history_;
        snapshot_ = snap;
        emit snapshotChanged(snapshot_);
    });
}

} // namespace bpu::ui
