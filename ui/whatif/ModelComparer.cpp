// SPDX-License-Identifier: MIT
#include "ModelComparer.h"

#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "ui/session/SessionController.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent>

namespace bpu::ui {

namespace {

struct Outcome {
    std::shared_ptr<Session> other;
    std::shared_ptr<const Comparison> comparison;
    QString error;
};

} // namespace

ModelComparer::ModelComparer(SessionController* controller, QObject* parent)
    : QObject(parent)
    , controller_(controller) {}

ModelComparer::~ModelComparer() = default;

void ModelComparer::compareWith(const QString& path) {
    path_ = path;
    other_.reset();
    result_.reset();
    emit started(path);
    run(true);
}

void ModelComparer::refresh() {
    if (isActive())
        run(other_ == nullptr);
}

void ModelComparer::clear() {
    ++generation_;
    path_.clear();
    other_.reset();
    result_.reset();
    busy_ = false;
    emit cleared();
}

void ModelComparer::run(bool reload) {
    const uint64_t gen = ++generation_;
    busy_ = true;
    const QString path = path_;
    std::shared_ptr<Session> other = reload ? nullptr : other_;
    // A private copy of the open model's current state, taken on the session's worker; the comparison (and
    // the other model's import) then run on the thread pool, never on the GUI thread or the session worker.
    QPointer<ModelComparer> self(this);
    controller_->reportSources([self, gen, path, other](std::shared_ptr<ReportSources> src) {
        if (!self || gen != self->generation_)
            return;
        if (!src || !src->current) {
            self->busy_ = false;
            emit self->failed(tr("Open a model first"));
            return;
        }
        auto* watcher = new QFutureWatcher<Outcome>(self);
        connect(watcher, &QFutureWatcher<Outcome>::finished, self, [self, watcher, gen] {
            watcher->deleteLater();
            const Outcome o = watcher->result();
            if (!self || gen != self->generation_)
                return;
            self->busy_ = false;
            if (!o.error.isEmpty()) {
                self->path_.clear();
                emit self->failed(o.error);
                return;
            }
            self->other_ = o.other;
            self->result_ = o.comparison;
            emit self->updated(o.comparison);
        });
        watcher->setFuture(QtConcurrent::run([current = src->current, other, path]() -> Outcome {
            Outcome o;
            try {
                // A run works on its own copy of the other model (cheap: the graph is shared until edited),
                // so an older run still finishing never races this one.
                auto mine = other ? std::make_shared<Session>(*other)
                                  : std::make_shared<Session>(ModelImporter::load(path.toStdString()),
                                                              current->targetPtr());
                if (mine->targetPtr() != current->targetPtr())
                    mine->setTarget(current->targetPtr());
                o.comparison = std::make_shared<const Comparison>(compareSessions(*current, *mine));
                o.other = std::move(mine);
            } catch (const std::exception& e) {
                o.error = QString::fromStdString(e.what());
            }
            return o;
        }));
    });
}

} // namespace bpu::ui
