// SPDX-License-Identifier: MIT
#include "SessionController.h"

#include "OutputCheck.h"

#include "ProjectFile.h"
#include "core/cost/Hotspots.h"
#include "core/deploy/DeployImport.h"
#include "core/edit/EditHistory.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"
#include "core/util/SafeFile.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QThread>
#include <algorithm>

namespace bpu::ui {

/// One loaded model on the worker: the session, its undo history and the sessions it is compared with.
struct SessionController::Live {
    Live(Session s, uint64_t id, QString modelPath, QString targetRequest)
        : session(std::move(s))
        , pristine(std::make_shared<const Session>(session))
        , modelId(id)
        , path(std::move(modelPath))
        , target(std::move(targetRequest)) {}

    Session session;
    EditHistory history;
    /// The model as loaded; session-level settings changed since are applied when it is next needed.
    std::shared_ptr<const Session> pristine;
    std::vector<std::function<void(Session&)>> pendingForPristine;
    /// The state set with "Set baseline", kept on the current settings; null: the baseline is `pristine`.
    std::shared_ptr<const Session> baseline;
    size_t baselineStep = 0;
    EditList baselineEdits;
    bool gainsFresh = false; ///< the findings' gains match the session's state
    uint64_t state = 0;      ///< counts the session's changes: Snapshot::generation
    /// Every change of the session's state goes through here: its gains are stale and it is a new state.
    void stateChanged() {
        gainsFresh = false;
        ++state;
    }
    /// The deployment as last opened or saved: a change of it is unsaved work like an edit.
    DeploySettings savedDeploy;
    Objective savedObjective = Objective::Latency; ///< as last opened or saved: a change is unsaved work
    std::map<std::string, std::vector<int64_t>> openShapes; ///< Snapshot::openShapes
    std::vector<KeptEdit> kept;                             ///< Snapshot::kept
    bool keptSaved = true; ///< `kept` is as last opened or saved (a removal is unsaved work)
    uint64_t modelId;
    QString path, target;

    const Session& pristineNow() {
        if (!pendingForPristine.empty()) {
            auto s = std::make_shared<Session>(*pristine);
            for (const auto& change : pendingForPristine)
                change(*s);
            pendingForPristine.clear();
            pristine = std::move(s);
        }
        return *pristine;
    }
    const Session& baselineNow() { return baseline ? *baseline : pristineNow(); }
    void setBaselineHere() {
        baseline = std::make_shared<const Session>(session);
        baselineStep = history.position();
        baselineEdits = history.appliedEdits();
    }
    /// A baseline that is no state of the history (a project's or a reload's baseline edit list): the
    /// model as loaded, on the current settings, with `edits` applied. Throws EditListError.
    void setBaselineFrom(const EditList& edits) {
        Session b = pristineNow();
        applyEditList(b, edits);
        baseline = std::make_shared<const Session>(std::move(b));
        baselineStep = kNotAStep;
        baselineEdits = edits;
    }
    /// The baseline's edits from the model as loaded, as a project writes them (empty: as loaded): what
    /// "the baseline is unsaved" compares.
    nlohmann::json baselineJson() const {
        return baseline ? editListToJson(baselineEdits)["edits"] : nlohmann::json::array();
    }
    /// The baseline as a project saves it (issue 63): how many leading applied edits it holds (0: the model
    /// as loaded); SIZE_MAX when it holds edits the history no longer starts with (an undo below it and
    /// other edits since), which a project cannot say.
    size_t baselinePrefix() const {
        if (!baseline)
            return 0;
        const EditList now = history.appliedEdits();
        if (baselineEdits.size() > now.size())
            return SIZE_MAX;
        for (size_t i = 0; i < baselineEdits.size(); ++i)
            if (baselineEdits[i]->toJson() != now[i]->toJson())
                return SIZE_MAX;
        return baselineEdits.size();
    }
    nlohmann::json savedBaseline = nlohmann::json::array(); ///< baselineJson() as last opened or saved
};

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

EditRejection rejection(const EditListError& e, const QString& action, bool drag = false) {
    return {qs(e.edit()), qs(e.reason()), action, drag};
}

} // namespace

SessionController::SessionController(JobTracker* jobs, QObject* parent)
    : QObject(parent)
    , jobs_(jobs) {
    qRegisterMetaType<SnapshotPtr>();
    qRegisterMetaType<EditRejection>();
    qRegisterMetaType<JobOutcome>();
    qRegisterMetaType<JobLane>();
    worker_.setMaxThreadCount(1); // one worker: session operations are serialised
    worker_.setExpiryTimeout(-1);
    background_.setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
}

SessionController::~SessionController() {
    for (JobLane lane : {JobLane::Load, JobLane::Session, JobLane::Sweep})
        jobs_->cancel(lane);
    worker_.clear();
    worker_.waitForDone();
    background_.waitForDone();
}

void SessionController::runOnWorker(std::function<void()> job) {
    worker_.start([job = std::move(job)] { job(); });
}

void SessionController::finishOnGui(const JobTicket& t, JobOutcome outcome) {
    QMetaObject::invokeMethod(this, [this, t, outcome] { jobs_->finish(t, outcome); });
}

std::shared_ptr<Snapshot> SessionController::makeSnapshot(Live& live) {
    auto snap = std::make_shared<Snapshot>();
    Session& s = live.session;
    snap->modelId = live.modelId;
    snap->modelPath = live.path;
    snap->targetRequest = live.target;
    snap->graph = s.sharedGraph(); // copy-on-write: the session copies it only at its next graph edit
    snap->target = s.targetPtr();
    snap->deploy = s.options().deploy;
    snap->openShapes = live.openShapes;
    snap->savedDeploy = live.savedDeploy;
    snap->cost = s.cost();
    snap->generation = live.state;
    snap->findingsReady = live.gainsFresh;
    const Session& base = live.baselineNow();
    snap->baseline = base.cost();
    snap->setAnalysis(s.analysis(), base.analysis());
    snap->deltas = std::make_shared<const NodeDeltas>(s.graph(), s.cost(), base.graph(), base.cost());
    snap->baselineRowUs = matchingRowUs(snap->cost, snap->baseline);
    // A baseline the applied edits no longer start with is no step of this history (undone below and edited
    // otherwise, or a project's edit list): said so, and a reload carries its edits.
    snap->baselineStep = !live.baseline                      ? 0
                         : live.baselinePrefix() == SIZE_MAX ? kNotAStep
                                                             : live.baselineStep;
    snap->baselineEdits = live.baseline ? live.baselineEdits : EditList{};
    for (size_t i = 0; i < live.history.size(); ++i) {
        snap->history << qs(live.history.step(i).label);
        if (i < live.history.position())
            snap->stepEdits.push_back(live.history.step(i).edits);
    }
    snap->historyPosition = live.history.position();
    snap->objective = s.objective();
    snap->completeness = completeness(s.graph());
    snap->savedObjective = live.savedObjective;
    // What is not saved, each named (the unsaved prompt lists them; issue 63).
    if (!live.history.isClean())
        snap->unsaved << tr("the edits (%1 step(s) applied)").arg(live.history.position());
    if (!(s.options().deploy == live.savedDeploy))
        snap->unsaved << tr("the deployment");
    if (s.objective() != live.savedObjective)
        snap->unsaved << tr("the objective");
    if (live.baselineJson() != live.savedBaseline)
        snap->unsaved << tr("the baseline");
    if (!live.keptSaved)
        snap->unsaved << tr("the edits kept aside");
    snap->savedBaseline = live.savedBaseline;
    snap->clean = snap->unsaved.isEmpty();
    snap->edits = live.history.appliedEdits();
    snap->kept = live.kept;
    return snap;
}

void SessionController::applySteps(Live& live, const OpenRequest& request,
                                   std::vector<EditRejection>& rejected) {
    for (size_t i = 0; i < request.steps.size(); ++i) {
        if (request.baselineStep > 0 && i == request.baselineStep)
            live.setBaselineHere();
        const HistoryStep& step = request.steps[i];
        if (request.lenient) {
            // What does not fit is kept aside, never dropped: the user's work stays in the project.
            for (const EditListError& e :
                 live.history.applyWhatFits(live.session, step.edits, step.label.toStdString()))
                live.kept.push_back({step.edits[e.index()], qs(e.reason()), step.label});
            continue;
        }
        try {
            live.history.apply(live.session, step.edits, step.label.toStdString());
        } catch (const EditListError& e) {
            rejected.push_back(rejection(e, step.label));
        }
    }
    if (request.baselineStep > 0 && request.baselineStep >= request.steps.size())
        live.setBaselineHere();
    // The edits kept aside before are tried again (the model may have its node back): those that apply now
    // are one more step, the rest stay kept with today's reason.
    bool keptApplied = false;
    if (!request.kept.empty()) {
        EditList again;
        for (const KeptEdit& k : request.kept)
            again.push_back(k.edit);
        const auto errors = live.history.applyWhatFits(live.session, again,
                                                       tr("Edits kept aside, applied now").toStdString());
        for (const EditListError& e : errors) {
            KeptEdit k = request.kept[e.index()];
            k.reason = qs(e.reason());
            live.kept.push_back(std::move(k));
        }
        keptApplied = errors.size() < request.kept.size();
    }
    if (request.clean && !keptApplied)
        live.history.markClean();
}

void SessionController::open(OpenRequest request) {
    const JobTicket t = jobs_->begin(JobLane::Load);
    const uint64_t modelId = ++modelCount_;
    runOnWorker([this, request = std::move(request), t, modelId] {
        JobOutcome outcome = JobOutcome::Done;
        QString message;
        std::shared_ptr<Live> live;
        std::shared_ptr<Snapshot> snap;
        QStringList notApplied, warnings;
        std::vector<EditRejection> rejected;
        try {
            // The deployment's input_shape / input_batch shape the import as in the CLI (issue 50). The shape
            // prompt's answers count for the inputs the config leaves open only: choosing a config with
            // shapes is the user's newer word than an answer typed for the model alone.
            ImportOptions explicitShapes;
            explicitShapes.inputShapes = request.inputShapes;
            std::vector<std::string> notes;
            if (request.deploy) {
                if (request.deploy->inputShapes.count(""))
                    explicitShapes.inputShapes.clear();
                for (const auto& named : request.deploy->inputShapes)
                    explicitShapes.inputShapes.erase(named.first);
            }
            ImportOptions opt = request.deploy
                                    ? importOptionsWithDeploy(explicitShapes, false, *request.deploy, notes)
                                    : explicitShapes;
            opt.progress = t.progress([this](double f, std::string_view stage) {
                emit loadProgress(0.8 * f, QString::fromUtf8(stage.data(), qsizetype(stage.size())));
            });
            Graph g = ModelImporter::load(request.path.toStdString(), opt);
            if (request.deploy) // a config for another export of the model fails the load, naming the key
                checkDeployNames(*request.deploy, g);
            for (const std::string& n : notes)
                g.diagnostics.push_back(
                    {DiagSeverity::Note, DiagCode::DeploymentNote, request.deploy->source, n});
            for (const auto& d : g.diagnostics)
                warnings << qs(d.text);
            auto profile =
                std::make_shared<const TargetProfile>(loadTargetProfile(request.target.toStdString()));
            emit loadProgress(0.85, QStringLiteral("analysis"));
            opt.progress.checkCancel();
            // A project's (or a reload's) deployment is the session's from the start: one estimate, and the
            // baseline "as loaded" runs the same way.
            AnalysisOptions options;
            if (request.deploy)
                options.deploy = *request.deploy;
            live = std::make_shared<Live>(Session(std::move(g), profile, options), modelId, request.path,
                                          request.target);
            live->savedDeploy = request.savedDeploy.value_or(live->session.options().deploy);
            live->session.setObjective(request.objective);
            live->savedObjective = request.savedObjective.value_or(request.objective);
            live->openShapes = explicitShapes.inputShapes;
            opt.progress.checkCancel();
            applySteps(*live, request, rejected);
            if (request.baselineList)
                try {
                    live->setBaselineFrom(*request.baselineList);
                } catch (const EditListError& e) {
                    // Kept as loaded, and said: the saved baseline is not silently replaced.
                    rejected.push_back(rejection(e, tr("baseline")));
                    live->baseline = nullptr;
                }
            live->savedBaseline = request.savedBaseline.value_or(live->baselineJson());
            for (const KeptEdit& k : live->kept)
                notApplied << QStringLiteral("%1: %2 (%3)").arg(k.origin, qs(k.edit->describe()), k.reason);
            emit loadProgress(0.95, QStringLiteral("finding gains"));
            live->session.estimateFindingGains(opt.progress);
            live->gainsFresh = true;
            snap = makeSnapshot(*live);
        } catch (const Cancelled&) {
            outcome = JobOutcome::Cancelled;
        } catch (const std::exception& e) {
            outcome = JobOutcome::Failed;
            message = qs(e.what());
        }
        QMetaObject::invokeMethod(
            this, [this, t, outcome, message, live, snap, notApplied, warnings, rejected, request] {
                const bool current = jobs_->isCurrent(t);
                const JobOutcome o =
                    outcome == JobOutcome::Done && t.cancelled() ? JobOutcome::Cancelled : outcome;
                if (!current || o != JobOutcome::Done) {
                    jobs_->finish(t, o);
                    if (current) // a newer open() reports for itself
                        emit loadFailed(request.path, message, o);
                    return;
                }
                live_ = live;
                target_ = request.target;
                projectPath_ = request.projectPath;
                snapshot_ = snap;
                emit loaded(request.path, notApplied, warnings);
                for (const auto& r : rejected)
                    emit editRejected(r);
                emit snapshotChanged(snapshot_);
                jobs_->finish(t, JobOutcome::Done);
            });
    });
}

void SessionController::cancelLoad() {
    jobs_->cancel(JobLane::Load);
}

void SessionController::post(std::function<void(Live&)> op, Gains gains) {
    auto live = live_;
    if (!live)
        return;
    const JobTicket t = jobs_->begin(JobLane::Session);
    runOnWorker([this, live, op = std::move(op), gains, t] {
        op(*live);
        publish(live, t, gains);
    });
}

void SessionController::publish(const std::shared_ptr<Live>& live, const JobTicket& t, Gains gains) {
    // Worker side. A newer request is queued: it publishes; this one skips its gains and its snapshot.
    if (t.cancelled()) {
        finishOnGui(t, JobOutcome::Cancelled);
        return;
    }
    Session& s = live->session;
    // Issue 63: an edit that changed nothing (Fuse all with nothing to fuse) records no step, so the state
    // is the one whose gains were estimated, yet the re-estimate it took raised the rules' raw findings
    // again: the session says so, and the gains are estimated again rather than the raw list shown.
    if (gains == Gains::Estimate && (!live->gainsFresh || !s.gainsEstimated())) {
        try {
            s.estimateFindingGains(t.progress());
            live->gainsFresh = true;
        } catch (const Cancelled&) {
            finishOnGui(t, JobOutcome::Cancelled);
            return;
        }
    } else {
        s.findings();
    }
    auto snap = makeSnapshot(*live);
    QMetaObject::invokeMethod(this, [this, live, snap, t] {
        if (live != live_ || !jobs_->isCurrent(t)) {
            jobs_->finish(t, JobOutcome::Cancelled); // another model, or a newer state on its way
            return;
        }
        snapshot_ = snap;
        emit snapshotChanged(snapshot_);
        jobs_->finish(t, JobOutcome::Done);
    });
}

void SessionController::reconfigure(std::function<void(Session&)> change) {
    post(
        [change](Live& l) {
            change(l.session);
            if (l.baseline) {
                auto b = std::make_shared<Session>(*l.baseline);
                change(*b);
                l.baseline = std::move(b);
            }
            l.pendingForPristine.push_back(change);
            l.stateChanged();
        },
        Gains::Estimate);
}

void SessionController::setTarget(const QString& target) {
    if (!live_)
        return;
    // The profile loads on the worker; a file that does not load leaves everything as it was.
    post(
        [this, target](Live& l) {
            std::shared_ptr<const TargetProfile> profile;
            try {
                profile = std::make_shared<const TargetProfile>(loadTargetProfile(target.toStdString()));
            } catch (const std::exception& e) {
                const QString msg = qs(e.what());
                QMetaObject::invokeMethod(this, [this, msg] { emit targetRejected(msg); });
                return;
            }
            auto change = [profile](Session& s) {
                s.setTarget(profile);
            };
            change(l.session);
            if (l.baseline) {
                auto b = std::make_shared<Session>(*l.baseline);
                change(*b);
                l.baseline = std::move(b);
            }
            l.pendingForPristine.push_back(change);
            l.target = target;
            l.stateChanged();
            QMetaObject::invokeMethod(this, [this, target, live = &l] {
                if (live_.get() == live)
                    target_ = target;
            });
        },
        Gains::Estimate);
}

void SessionController::apply(uint64_t modelId, EditList edits, const QString& label) {
    if (!live_ || live_->modelId != modelId)
        return; // made for a model no longer open
    post(
        [this, edits = std::move(edits), label](Live& l) {
            try {
                if (!l.history.apply(l.session, edits, label.toStdString())) {
                    QMetaObject::invokeMethod(this, [this, label] { emit nothingChanged(label); });
                    return;
                }
                l.stateChanged();
            } catch (const EditListError& e) {
                const EditRejection r = rejection(e, label);
                QMetaObject::invokeMethod(this, [this, r] { emit editRejected(r); });
            }
        },
        Gains::Estimate);
}

void SessionController::dragStep(uint64_t modelId, EditPtr edit, bool final) {
    if (!live_ || live_->modelId != modelId)
        return;
    post(
        [this, edit, final](Live& l) {
            try {
                if (l.history.applyDragStep(l.session, edit, final))
                    l.stateChanged();
            } catch (const EditListError& e) {
                if (final)
                    l.history.closeDrag();
                const EditRejection r = rejection(e, tr("drag"), true);
                QMetaObject::invokeMethod(this, [this, r] { emit editRejected(r); });
            }
        },
        final ? Gains::Estimate : Gains::Skip);
}

void SessionController::undo() {
    post(
        [](Live& l) {
            if (l.history.canUndo()) {
                l.history.undo(l.session);
                l.stateChanged();
            }
        },
        Gains::Estimate);
}

void SessionController::redo() {
    post(
        [this](Live& l) {
            if (!l.history.canRedo())
                return;
            try {
                l.history.redo(l.session);
                l.stateChanged();
            } catch (const EditListError& e) {
                const EditRejection r = rejection(e, tr("redo"));
                QMetaObject::invokeMethod(this, [this, r] { emit editRejected(r); });
            }
        },
        Gains::Estimate);
}

void SessionController::goToStep(size_t position) {
    post(
        [position](Live& l) {
            if (position != l.history.position()) {
                l.history.goTo(l.session, position);
                l.stateChanged();
            }
        },
        Gains::Estimate);
}

void SessionController::setBaseline() {
    post([](Live& l) { l.setBaselineHere(); }, Gains::Estimate);
}

void SessionController::removeKept(uint64_t modelId, size_t index) {
    post(
        [modelId, index](Live& l) {
            if (l.modelId != modelId || index >= l.kept.size())
                return;
            l.kept.erase(l.kept.begin() + long(index));
            l.keptSaved = false;
        },
        Gains::Estimate);
}

void SessionController::saveProject(const QString& path, std::function<void(QString)> done) {
    if (!live_) {
        done(tr("no model is open"));
        return;
    }
    post(
        [this, path, done](Live& l) {
            // The CLI's output rules: a symlink written through, never the model or its external data.
            QString refused;
            const QString target = checkedOutputPath(path, &l.session.graph(), &refused);
            if (!refused.isEmpty()) {
                QMetaObject::invokeMethod(this, [refused, done] { done(refused); });
                return;
            }
            Project p;
            p.modelPath = QFileInfo(l.path).absoluteFilePath();
            p.sha256 = fileSha256(p.modelPath);
            p.target = l.target;
            p.edits = editListToJson(l.history.appliedEdits())["edits"];
            p.deploy = l.session.options().deploy;
            p.objective = l.session.objective();
            // A baseline the edits do not start with is saved as its own edit list.
            const size_t prefix = l.baselinePrefix();
            if (prefix == SIZE_MAX)
                p.baselineList = l.baselineJson();
            else
                p.baselineEdits = prefix;
            for (const KeptEdit& k : l.kept)
                p.kept.push_back({k.edit->toJson(), k.reason.toStdString(), k.origin.toStdString()});
            const QString error = bpu::ui::saveProject(path, p, target);
            if (error.isEmpty()) {
                l.history.markClean();
                l.savedDeploy = l.session.options().deploy;
                l.savedObjective = l.session.objective();
                l.keptSaved = true;
                l.savedBaseline = l.baselineJson();
            }
            QMetaObject::invokeMethod(this, [this, path, error, done] {
                if (error.isEmpty())
                    projectPath_ = path;
                done(error);
            });
        },
        Gains::Estimate);
}

void SessionController::runOnCopy(uint64_t modelId, JobLane lane, CopyWork work,
                                  std::function<void(JobOutcome, const QString& error)> done) {
    auto live = live_;
    if (!live || live->modelId != modelId)
        return;
    const JobTicket t = jobs_->begin(lane);
    runOnWorker([this, live, work = std::move(work), done = std::move(done), t] {
        if (t.cancelled()) {
            finishOnGui(t, JobOutcome::Cancelled);
            return;
        }
        // A copy of the session (its graph shared until the job's first edit), worked on off the worker so
        // edits are not held up behind it; what the copy was taken at is read here, on the worker.
        auto copy = std::make_shared<Session>(live->session);
        const CopyState at{live->state, live->gainsFresh};
        background_.start([this, copy, at, work, done, t] {
            JobOutcome outcome = JobOutcome::Done;
            QString error;
            try {
                work(*copy, at, t.progress());
            } catch (const Cancelled&) {
                outcome = JobOutcome::Cancelled;
            } catch (const std::exception& e) {
                outcome = JobOutcome::Failed;
                error = QString::fromStdString(e.what());
            }
            QMetaObject::invokeMethod(this, [this, t, outcome, error, done] {
                if (jobs_->finish(t, outcome) && !t.cancelled())
                    done(outcome, error);
            });
        });
    });
}

void SessionController::sweep(uint64_t modelId, EditableDim dim, std::vector<int64_t> values,
                              std::function<void(JobOutcome, const SweepResult&)> done) {
    auto result = std::make_shared<SweepResult>();
    runOnCopy(
        modelId, JobLane::Sweep,
        [result, dim = std::move(dim), values = std::move(values)](Session& copy, const CopyState&,
                                                                   const Progress& progress) {
            *result = bpu::sweep(std::move(copy), dim, values, progress);
        },
        [result, done = std::move(done)](JobOutcome outcome, const QString& error) {
            if (outcome == JobOutcome::Failed)
                result->error = error.toStdString();
            done(outcome, *result);
        });
}

void SessionController::plan(uint64_t modelId, PlanDone done) {
    struct Result {
        std::shared_ptr<const OptimizationPlan> plan;
        uint64_t state = 0;
    };
    auto result = std::make_shared<Result>();
    runOnCopy(
        modelId, JobLane::Plan,
        [result](Session& copy, const CopyState& at, const Progress& progress) {
            result->state = at.state;
            // The plan orders fixes by their standalone gains; a state published before its gains were
            // estimated gets them here.
            if (!at.gainsFresh)
                copy.estimateFindingGains(progress);
            result->plan =
                std::make_shared<OptimizationPlan>(buildOptimizationPlan(copy, SIZE_MAX, progress));
        },
        [result, done = std::move(done)](JobOutcome outcome, const QString& error) {
            done(outcome, outcome == JobOutcome::Done ? result->plan : nullptr, result->state, error);
        });
}

void SessionController::exportModel(uint64_t modelId, const QString& onnx, const QString& yaml,
                                    ExportDone done) {
    auto result = std::make_shared<std::shared_ptr<const EditedModelExport>>();
    runOnCopy(
        modelId, JobLane::ModelExport,
        [result, onnx, yaml](Session& copy, const CopyState&, const Progress& progress) {
            progress.checkCancel();
            *result = std::make_shared<const EditedModelExport>(
                exportEditedModel(copy, onnx.toStdString(), yaml.toStdString()));
        },
        [result, done = std::move(done)](JobOutcome outcome, const QString& error) {
            done(outcome, outcome == JobOutcome::Done ? *result : nullptr, error);
        });
}

void SessionController::reportSources(std::function<void(std::shared_ptr<ReportSources>)> done) {
    auto live = live_;
    if (!live) {
        done(nullptr);
        return;
    }
    runOnWorker([this, live, done = std::move(done)] {
        auto src = std::make_shared<ReportSources>();
        try {
            src->current = std::make_shared<Session>(live->session);
            src->gainsEstimated = live->gainsFresh;
            const EditList applied = live->history.appliedEdits();
            // Against the baseline when the current state builds on it, else against the model as loaded.
            const EditList& base = live->baseline ? live->baselineEdits : EditList{};
            const bool extends = live->baseline && base.size() <= applied.size() &&
                                 std::equal(base.begin(), base.end(), applied.begin());
            if (extends) {
                src->edits.assign(applied.begin() + long(base.size()), applied.end());
                src->baseline = live->baseline;
                src->baselineNote =
                    "the state set as baseline (" + std::to_string(base.size()) + " edit(s): ";
                for (size_t i = 0; i < base.size(); ++i)
                    src->baselineNote += (i ? "; " : "") + base[i]->describe(3);
                src->baselineNote += ")";
            } else {
                src->edits = applied;
                if (!applied.empty())
                    src->baseline = std::make_shared<const Session>(live->pristineNow());
            }
            if (src->edits.empty()) { // nothing changed since the baseline: the report of one state
                src->baseline = nullptr;
                src->baselineNote.clear();
            }
        } catch (const std::exception&) {
            src = std::make_shared<ReportSources>(); // no current session: the caller reports the failure
        }
        QMetaObject::invokeMethod(this, [done, src] { done(src); });
    });
}

} // namespace bpu::ui
