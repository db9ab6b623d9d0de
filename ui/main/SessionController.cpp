// SPDX-License-Identifier: MIT
#include "SessionController.h"

#include "core/edit/Edit.h"
#include "core/edit/EditError.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QMetaObject>
#include <algorithm>
#include <QUndoStack>
#include <QVariant>

namespace bpu::ui {

SessionController::SessionController(QObject* parent) : QObject(parent), undo_(new QUndoStack(this)) {
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

void SessionController::open(const QString& path, const QString& target) {
    cancelLoad();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    loading_ = true;
    emit busyChanged(true);
    auto cancel = cancel_;
    const uint64_t gen = ++requested_;
    runOnWorker([this, path, target, cancel, gen] {
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
            auto session = std::make_shared<Session>(std::move(g), profile);
            emit loadProgress(0.95, QStringLiteral("finding gains"));
            session->estimateFindingGains();
            opt.progress.checkCancel();
            QMetaObject::invokeMethod(this, [this, session, path, target, gen] {
                (void)gen;
                session_ = session;
                path_ = path;
                target_ = target;
                history_.clear();
                undo_->clear();
                applied_.clear();
                appliedOrder_.clear();
                baseline_ = session->cost();
                baselineSummary_ = session->analysis().summary;
                baselineNodeUs_.clear();
                for (const auto& n : baseline_.nodes)
                    baselineNodeUs_.push_back(n.latencyUs);
                loading_ = false;
                ++modelId_;
                publishedGraph_.reset();
                runOnWorker([this] { publish(true); });
                emit busyChanged(false);
                emit loaded(path);
            });
        } catch (const Cancelled&) {
            QMetaObject::invokeMethod(this, [this] {
                loading_ = false;
                emit busyChanged(false);
                emit failed(tr("cancelled"));
            });
        } catch (const std::exception& e) {
            const QString msg = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, msg] {
                loading_ = false;
                emit busyChanged(false);
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
    if (!session_)
        return;
    ++requested_;
    runOnWorker([this, target] {
        try {
            auto profile = std::make_shared<const TargetProfile>(loadTargetProfile(target.toStdString()));
            session_->setTarget(profile);
            QMetaObject::invokeMethod(this, [this, target] { target_ = target; });
            publish(true);
        } catch (const std::exception& e) {
            const QString msg = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, msg] { emit failed(msg); });
        }
    });
}

void SessionController::applyEdit(std::shared_ptr<Edit> edit, bool final) {
    if (!session_)
        return;
    ++requested_;
    runOnWorker([this, edit, final] {
        try {
            edit->apply(*session_);
            applied_.insert(edit.get());
            appliedOrder_.push_back(edit);
            const QString line = QString::fromStdString(edit->describe());
            QMetaObject::invokeMethod(this, [this, line] { history_.append(line); });
            publish(final);
        } catch (const EditError& e) {
            const QString msg = QString::fromStdString(e.what());
            QMetaObject::invokeMethod(this, [this, msg] { emit editRejected(msg); });
        }
    });
}

void SessionController::revertEdit(std::shared_ptr<Edit> edit) {
    if (!session_)
        return;
    ++requested_;
    runOnWorker([this, edit] {
        if (!applied_.erase(edit.get()))
            return; // never applied (rejected): nothing to revert
        edit->revert(*session_);
        appliedOrder_.erase(std::remove(appliedOrder_.begin(), appliedOrder_.end(), edit), appliedOrder_.end());
        QMetaObject::invokeMethod(this, [this] {
            if (!history_.isEmpty())
                history_.removeLast();
        });
        publish(true);
    });
}

void SessionController::setBaseline() {
    if (!snapshot_)
        return;
    baseline_ = snapshot_->cost;
    baselineSummary_ = snapshot_->analysis.summary;
    baselineNodeUs_.clear();
    for (const auto& n : baseline_.nodes)
        baselineNodeUs_.push_back(n.latencyUs);
    runOnWorker([this] { publish(false); });
}

void SessionController::preview(std::function<QVariant(const Session&)> work, std::function<void(QVariant)> done) {
    if (!session_)
        return;
    runOnWorker([this, work = std::move(work), done = std::move(done)] {
        QVariant v = work(*session_);
        QMetaObject::invokeMethod(this, [done, v] { done(v); });
    });
}

void SessionController::publish(bool withFindings) {
    // Runs on the worker. Skip the expensive part if a newer request is already queued.
    const uint64_t gen = requested_.load();
    auto snap = std::make_shared<Snapshot>();
    snap->generation = gen;
    if (withFindings && gen == requested_.load()) {
        session_->estimateFindingGains();
        snap->findingsReady = true;
    } else {
        session_->findings();
    }
    snap->graph = std::make_shared<const Graph>(session_->graph());
    snap->target = session_->targetPtr();
    snap->analysis = session_->analysis();
    snap->cost = session_->cost();
    for (const auto& e : appliedOrder_)
        snap->edits.push_back(e->toJson());
    QMetaObject::invokeMethod(this, [this, snap] {
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
