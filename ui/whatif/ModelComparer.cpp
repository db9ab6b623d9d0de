// SPDX-License-Identifier: MIT
#include "ModelComparer.h"

#include "core/deploy/DeployImport.h"

#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "ui/session/JobTracker.h"
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
    bool cancelled = false;
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
    controller_->jobs()->cancel(JobLane::Compare);
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
    // One job of the tracker's Compare lane from the request on: a newer request raises this one's cancel
    // flag (the other model's import stops at its next check) and the window is not settled before it ends.
    JobTracker* jobs = controller_->jobs();
    const JobTicket ticket = jobs->begin(JobLane::Compare);
    // A private copy of the open model's current state, taken on the session's worker; the comparison (and
    // the other model's import) then run on the thread pool, never on the GUI thread or the session worker.
    QPointer<ModelComparer> self(this);
    QPointer<JobTracker> tracker(jobs);
    controller_->reportSources([self, tracker, ticket, gen, path, other](std::shared_ptr<ReportSources> src) {
        auto finish = [tracker, ticket](JobOutcome o) {
            if (tracker)
                tracker->finish(ticket, o);
        };
        if (!self || gen != self->generation_ || ticket.cancelled()) {
            finish(JobOutcome::Cancelled);
            return;
        }
        if (!src || !src->current) {
            self->busy_ = false;
            finish(JobOutcome::Failed);
            emit self->failed(tr("Open a model first"));
            return;
        }
        auto* watcher = new QFutureWatcher<Outcome>(self);
        connect(watcher, &QFutureWatcher<Outcome>::finished, self, [self, watcher, gen, finish] {
            watcher->deleteLater();
            const Outcome o = watcher->result();
            if (!self || gen != self->generation_ || o.cancelled) {
                finish(JobOutcome::Cancelled);
                return;
            }
            self->busy_ = false;
            if (!o.error.isEmpty()) {
                self->path_.clear();
                finish(JobOutcome::Failed);
                emit self->failed(o.error);
                return;
            }
            self->other_ = o.other;
            self->result_ = o.comparison;
            emit self->updated(o.comparison);
            finish(JobOutcome::Done); // after the result is shown: "settled" means the comparison is there
        });
        watcher->setFuture(QtConcurrent::run([current = src->current, other, path, ticket]() -> Outcome {
            Outcome o;
            try {
                // A run works on its own copy of the other model (cheap: the graph is shared until edited),
                // so an older run still finishing never races this one.
                // Issue 63: the other model under the open one's target and deployment (a config's input
                // shapes applied to it, refused naming them where its inputs differ), so the delta is the
                // models', never the deployments'.
                const DeploySettings& deploy = current->options().deploy;
                std::vector<std::string> notes;
                ImportOptions opt = importOptionsWithDeploy({}, false, deploy, notes);
                opt.progress = ticket.progress();
                std::shared_ptr<Session> mine;
                if (other) {
                    mine = std::make_shared<Session>(*other);
                } else {
                    Graph g = ModelImporter::load(path.toStdString(), opt);
                    checkDeployNames(deploy, g);
                    AnalysisOptions analysis;
                    analysis.deploy = deploy;
                    mine = std::make_shared<Session>(std::move(g), current->targetPtr(), analysis);
                }
                ticket.progress().checkCancel();
                if (mine->targetPtr() != current->targetPtr())
                    mine->setTarget(current->targetPtr());
                if (!(mine->options().deploy == deploy))
                    mine->setDeploy(deploy);
                o.comparison = std::make_shared<const Comparison>(compareSessions(*current, *mine));
                o.other = std::move(mine);
            } catch (const Cancelled&) {
                o.cancelled = true;
            } catch (const std::exception& e) {
                o.error = QString::fromStdString(e.what());
            }
            return o;
        }));
    });
}

} // namespace bpu::ui
