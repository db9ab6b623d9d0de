// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include "DiagnosticsDialog.h"
#include "ElidingLabel.h"
#include "EstimateLabel.h"
#include "InputShapeDialog.h"
#include "ReportExporter.h"
#include "ResultBanner.h"
#include "StatusText.h"
#include "core/analysis/AnalysisResult.h"
#include "core/analysis/DrawnGroups.h"
#include "core/analysis/ResultDiagnostics.h"
#include "core/edit/Session.h"
#include "core/model/Completeness.h"
#include "ui/charts/ChartsPanel.h"
#include "ui/findings/FindingsPanel.h"
#include "ui/graph/GraphView.h"
#include "ui/hotspots/HotspotPanel.h"
#include "ui/inspector/InspectorPanel.h"
#include "ui/inspector/ShapeEditor.h"
#include "ui/session/SelectionHub.h"
#include "ui/whatif/ComparePanel.h"
#include "ui/whatif/DeploymentActions.h"
#include "ui/whatif/ModelComparer.h"
#include "ui/whatif/PlanPanel.h"
#include "ui/whatif/WhatIfActions.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

namespace bpu::ui {

namespace {

/// Same node count and every tensor's shape equal: what the graph boxes print is unchanged.
bool sameShapes(const Graph& a, const Graph& b) {
    if (a.nodes.size() != b.nodes.size() || a.tensors.size() != b.tensors.size())
        return false;
    for (size_t i = 0; i < a.tensors.size(); ++i)
        if (a.tensors[i].shape.dims != b.tensors[i].shape.dims)
            return false;
    return true;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , jobs_(new JobTracker)
    , controller_(new SessionController(jobs_, this))
    , hub_(new SelectionHub(this)) {
    setWindowTitle(QStringLiteral("BpuScope"));
    setAcceptDrops(true);
    exporter_ = new ReportExporter(controller_, jobs_, this);
    buildUi();
    buildCompare();
    buildMenus();
    connectSession();
    connect(jobs_, &JobTracker::settled, this, &MainWindow::settled);
    connect(jobs_, &JobTracker::shown, this, &MainWindow::shown);
    // The tracker becomes the window's last child, so it is deleted after every object that reports to it.
    jobs_->setParent(this);
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("windowState")).toByteArray());
}

MainWindow::~MainWindow() = default;

SnapshotPtr MainWindow::snapshot() const {
    return controller_->snapshot();
}
bool MainWindow::isLoading() const {
    return controller_->isLoading();
}
void MainWindow::cancelLoad() {
    controller_->cancelLoad();
}
bool MainWindow::hasUnsavedEdits() const {
    const auto s = snapshot();
    return s && !s->clean;
}

void MainWindow::connectSession() {
    connect(controller_, &SessionController::snapshotChanged, this, &MainWindow::showSnapshot);
    connect(controller_, &SessionController::loadProgress, this, [this](double f, const QString& stage) {
        progress_->setValue(int(f * 1000));
        progress_->setFormat(stage + QStringLiteral(" %p%"));
    });
    connect(jobs_, &JobTracker::laneBusyChanged, this, [this](JobLane lane, bool busy) {
        if (lane != JobLane::Load)
            return;
        progress_->setVisible(busy);
        cancel_->setVisible(busy);
    });
    connect(controller_, &SessionController::loaded, this,
            [this](const QString& path, const QStringList& notApplied, const QStringList& warnings) {
                addRecent(controller_->projectPath().isEmpty() ? path : controller_->projectPath());
                setWindowTitle(QStringLiteral("BpuScope - %1[*]").arg(QFileInfo(path).fileName()));
                const int t = targetBox_->findData(controller_->targetName());
                if (t >= 0)
                    targetBox_->setCurrentIndex(t);
                warnings_ = warnings; // for the shape prompt; the status bar follows each snapshot
                // One message for everything the load has to say: why the edits may not all fit, and which
                // did not.
                QString text = pendingNote_;
                if (!notApplied.isEmpty())
                    text += (text.isEmpty() ? QString() : QStringLiteral("\n\n")) +
                            tr("%n edit(s) could not be applied. They are kept aside: listed greyed in the "
                               "What-if panel, where you can remove them, and saved with the project.",
                               nullptr, int(notApplied.size())) +
                            QStringLiteral("\n- ") + notApplied.join(QStringLiteral("\n- "));
                pendingNote_.clear();
                if (!text.isEmpty())
                    showMessage(QMessageBox::Warning, tr("Opened with changes"), text);
                promptInputShapes(warnings);
            });
    connect(controller_, &SessionController::loadFailed, this,
            [this](const QString& path, const QString& msg, JobOutcome outcome) {
                const auto s = snapshot();
                const QString kept =
                    s ? tr("; %1 stays open").arg(QFileInfo(s->modelPath).fileName()) : QString();
                if (outcome == JobOutcome::Cancelled) {
                    statusBar()->showMessage(tr("Loading %1 cancelled%2").arg(path, kept), 8000);
                } else {
                    statusBar()->showMessage(tr("Could not open %1%2").arg(path, kept), 8000);
                    showMessage(QMessageBox::Critical, tr("Cannot open model"), msg);
                }
                pendingNote_.clear();
                emit loadFailed(outcome == JobOutcome::Cancelled ? QStringLiteral("cancelled") : msg);
            });
    connect(controller_, &SessionController::targetRejected, this, [this](const QString& msg) {
        // Drop the profile file that did not load from the selector, and show the target still in force.
        const int added = targetBox_->findData(requestedTarget_);
        if (added >= 0 && requestedTarget_ != controller_->targetName() &&
            requestedTarget_.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
            targetBox_->removeItem(added);
        const int i = targetBox_->findData(controller_->targetName());
        if (i >= 0)
            targetBox_->setCurrentIndex(i);
        showMessage(QMessageBox::Warning, tr("Cannot use the target profile"), msg);
    });
    connect(controller_, &SessionController::editRejected, this, [this](const EditRejection& r) {
        const QString why = tr("%1: %2").arg(r.edit, r.reason);
        statusBar()->showMessage(tr("Edit rejected (%1): %2").arg(r.action, why), 10000);
        // A drag goes on from the last value that applied; its editor says why this one did not, and a
        // modal box would steal the held mouse.
        if (!r.drag)
            showMessage(QMessageBox::Warning, tr("Edit rejected"),
                        tr("%1\n\n%2 was not applied: %3").arg(r.action, r.edit, r.reason));
        emit editRejected(why);
    });
    connect(controller_, &SessionController::nothingChanged, this, [this](const QString& action) {
        statusBar()->showMessage(tr("%1: nothing to change, no step recorded").arg(action), 6000);
    });
    connect(exporter_, &ReportExporter::progress, this, [this](double f, const QString& stage) {
        reportProgress_->setValue(int(f * 1000));
        reportProgress_->setFormat(tr("Report: %1 %p%").arg(stage));
    });
    connect(exporter_, &ReportExporter::finished, this,
            [this](const QString& path, JobOutcome outcome, const QString& error) {
                reportProgress_->hide();
                reportCancel_->hide();
                exportAction_->setEnabled(snapshot() != nullptr);
                if (outcome == JobOutcome::Done)
                    statusBar()->showMessage(tr("Wrote the report to %1").arg(path), 10000);
                else if (outcome == JobOutcome::Cancelled)
                    statusBar()->showMessage(tr("Report export cancelled; nothing was written"), 8000);
                else
                    showMessage(QMessageBox::Critical, tr("Cannot export the report"), error);
                emit reportFinished(path,
                                    outcome == JobOutcome::Cancelled ? QStringLiteral("cancelled") : error);
            });
}

void MainWindow::buildUi() {
    // The graph under the PARTIAL banner: what a partial result says comes before any figure in it.
    auto* centre = new QWidget(this);
    auto* column = new QVBoxLayout(centre);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    banner_ = new ResultBanner(centre);
    graph_ = new GraphView(centre);
    graph_->setJobTracker(jobs_);
    column->addWidget(banner_);
    column->addWidget(graph_, 1);
    setCentralWidget(centre);
    connect(banner_, &ResultBanner::setShapeRequested, this, [this] { promptInputShapes(warnings_); });
    connect(banner_, &ResultBanner::diagnosticsRequested, this, &MainWindow::showDiagnostics);
    connect(graph_, &GraphView::nodeSelected, this, [this](NodeId id) { hub_->select(id, graph_); });
    connect(hub_, &SelectionHub::changed, this, [this](NodeId id, QObject* sender) {
        if (sender != graph_)
            graph_->selectNode(id);
    });

    auto dock = [this](const QString& title, const QString& name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    inspector_ = new InspectorPanel(hub_, controller_, this);
    hotspots_ = new HotspotPanel(hub_, this);
    findings_ = new FindingsPanel(hub_, this);
    compare_ = new ComparePanel(controller_, this);
    plan_ = new PlanPanel(controller_, this);
    charts_ = new ChartsPanel(hub_, this);
    whatIf_ = new WhatIfActions(controller_, hub_, this);
    deployment_ = new DeploymentActions(controller_, this);
    connect(deployment_, &DeploymentActions::reopenRequested, this, &MainWindow::reopenWithDeploy);
    auto* dInspector =
        dock(tr("Inspector"), QStringLiteral("inspector"), inspector_, Qt::RightDockWidgetArea);
    auto* dCompare = dock(tr("What-if"), QStringLiteral("whatif"), compare_, Qt::RightDockWidgetArea);
    tabifyDockWidget(dInspector, dCompare);
    auto* dPlan = dock(tr("Plan"), QStringLiteral("plan"), plan_, Qt::RightDockWidgetArea);
    tabifyDockWidget(dCompare, dPlan);
    dInspector->raise();
    auto* dFindings = dock(tr("Findings"), QStringLiteral("findings"), findings_, Qt::LeftDockWidgetArea);
    auto* dHotspots = dock(tr("Hotspots"), QStringLiteral("hotspots"), hotspots_, Qt::BottomDockWidgetArea);
    auto* dCharts = dock(tr("Charts"), QStringLiteral("charts"), charts_, Qt::BottomDockWidgetArea);
    splitDockWidget(dHotspots, dCharts, Qt::Horizontal);
    // Defaults for a first start (a saved layout overrides them): the graph keeps the middle, the findings
    // get room for their text, the charts a readable share of the bottom.
    resizeDocks({dFindings, dInspector}, {330, 420}, Qt::Horizontal);
    resizeDocks({dHotspots, dCharts}, {860, 640}, Qt::Horizontal);
    resizeDocks({dHotspots}, {300}, Qt::Vertical);
    connect(plan_, &PlanPanel::applyRequested, whatIf_,
            [this](const EditList& edits, const QString& label) { whatIf_->apply(edits, label); });
    connect(findings_, &FindingsPanel::objectiveChosen, this,
            [this](Objective o) { controller_->reconfigure([o](Session& s) { s.setObjective(o); }); });
    connect(findings_, &FindingsPanel::applyFix, whatIf_, [this](const EditList& fix, const QString& title) {
        whatIf_->apply(fix, tr("Fix: %1").arg(title));
    });
    connect(hub_, &SelectionHub::changed, this, [this](NodeId id, QObject* sender) {
        if (sender == hotspots_ || sender == charts_ || sender == findings_)
            graph_->zoomToNode(id);
    });

    auto* estimate = new EstimateLabel(this);
    estimate_ = estimate;
    estimate_->setTextFormat(Qt::RichText);
    breakdown_ = new ElidingLabel(this);
    delta_ = new QLabel(this);
    delta_->setTextFormat(Qt::RichText);
    // The status bar never cuts the figures a user acts on: the estimate (compact when narrow), then the
    // change against the baseline kept whole beside it, then the node breakdown, which gives way with an
    // ellipsis (its whole text in the tooltip).
    breakdown_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    delta_->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Preferred);
    warning_ = new QLabel(this);
    warning_->setTextFormat(Qt::RichText);
    warning_->hide();
    connect(warning_, &QLabel::linkActivated, this, &MainWindow::showDiagnostics);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(260);
    progress_->setTextVisible(true);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setToolTip(tr("Stop loading; the open model stays"));
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, this, &MainWindow::cancelLoad);
    reportProgress_ = new QProgressBar(this);
    reportProgress_->setRange(0, 1000);
    reportProgress_->setMaximumWidth(300);
    reportProgress_->setTextVisible(true);
    reportProgress_->hide();
    reportCancel_ = new QPushButton(tr("Cancel report"), this);
    reportCancel_->hide();
    connect(reportCancel_, &QPushButton::clicked, exporter_, &ReportExporter::cancel);
    statusBar()->addWidget(estimate_);
    statusBar()->installEventFilter(estimate); // the estimate fits its text to the bar's width
    estimate->setNeighbour(delta_);
    statusBar()->addWidget(delta_);
    statusBar()->addWidget(breakdown_, 1);
    statusBar()->addPermanentWidget(warning_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(reportProgress_);
    statusBar()->addPermanentWidget(reportCancel_);
    resize(1500, 950);
}

void MainWindow::showMessage(QMessageBox::Icon icon, const QString& title, const QString& text) {
    // Non-blocking (open(), not exec()): loads and exports keep running and tests can read the box. One box
    // at a time: a new message replaces the one still shown rather than stacking on it.
    if (lastMessage_)
        lastMessage_->close();
    auto* box = new QMessageBox(icon, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Plain: a message quotes names from the model, and "<b>" in a name must not turn the box into HTML.
    box->setTextFormat(Qt::PlainText);
    box->open();
    lastMessage_ = box;
    emit messageShown(text);
}

void MainWindow::open(OpenRequest request) {
    pendingPath_ = request.path;
    if (request.target.isEmpty())
        request.target = QStringLiteral("s100");
    controller_->open(std::move(request));
}

bool MainWindow::openModel(const QString& path) {
    if (!maybeSave(tr("opening %1").arg(QFileInfo(path).fileName())))
        return false;
    OpenRequest r;
    r.path = path;
    const QString target = targetBox_ ? targetBox_->currentData().toString() : QString();
    r.target = target.isEmpty() ? QStringLiteral("s100") : target;
    // An --edits file given before the model: all or nothing, like the CLI, and not saved anywhere yet.
    r.steps = std::move(pendingSteps_);
    pendingSteps_.clear();
    r.clean = r.steps.empty();
    open(std::move(r));
    return true;
}

bool MainWindow::reload() {
    const auto s = snapshot();
    if (!s)
        return false;
    if (!s->clean) {
        const auto answer = QMessageBox::question(
            this, tr("Reload"),
            tr("Load %1 again from disk? Your %n edit step(s) are re-applied where they still fit; any that "
               "no longer fit are named and kept aside.",
               nullptr, int(s->historyPosition))
                .arg(QFileInfo(s->modelPath).fileName()),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes);
        if (answer != QMessageBox::Yes)
            return false;
    }
    open(reloadRequest(*s));
    return true;
}

OpenRequest MainWindow::reloadRequest(const Snapshot& s) const {
    OpenRequest r;
    r.path = s.modelPath;
    r.target = controller_->targetName();
    r.inputShapes = s.openShapes; // the shape prompt's answers
    for (size_t i = 0; i < s.historyPosition && i < s.stepEdits.size(); ++i)
        r.steps.push_back({s.history[int(i)], s.stepEdits[i]});
    r.lenient = true;
    if (s.baselineStep == kNotAStep)
        r.baselineList = s.baselineEdits; // no step of the history: its own edits
    else
        r.baselineStep = s.baselineStep;
    r.clean = s.clean;
    r.deploy = s.deploy; // the deployment chosen in Model > Deployment stays too
    r.savedDeploy = s.savedDeploy;
    r.objective = s.objective; // and the objective the findings rank by
    r.savedObjective = s.savedObjective;
    r.savedBaseline = s.savedBaseline;
    r.projectPath = controller_->projectPath();
    r.kept = s.kept;
    return r;
}

void MainWindow::reopenWithDeploy(const DeploySettings& d) {
    const auto s = snapshot();
    if (!s)
        return;
    OpenRequest r = reloadRequest(*s);
    r.deploy = d; // unsaved work when it is not the saved one (reloadRequest's savedDeploy)
    statusBar()->showMessage(
        d.inputShapes.empty() && d.inputBatch == 0
            ? tr("Opening %1 again at its own input shapes").arg(QFileInfo(s->modelPath).fileName())
            : tr("Opening %1 again at the input_shape / input_batch of %2, as hb_compile compiles it")
                  .arg(QFileInfo(s->modelPath).fileName(), QString::fromStdString(d.source)),
        10000);
    open(std::move(r));
}

void MainWindow::setTarget(const QString& target) {
    requestedTarget_ = target;
    int i = targetBox_->findData(target);
    if (i < 0) {
        targetBox_->insertItem(targetBox_->count() - 1, QFileInfo(target).fileName(), target);
        i = targetBox_->findData(target);
    }
    targetBox_->setCurrentIndex(i);
    controller_->setTarget(target);
}

void MainWindow::setColorMode(ColorMode m) {
    colorMode_ = m;
    const int i = colorBox_->findData(int(m));
    if (i >= 0)
        colorBox_->setCurrentIndex(i);
    if (auto s = snapshot())
        graph_->setColoring(coloring(*s));
}

void MainWindow::applyEditList(EditList edits, const QString& source) {
    const QString label = tr("Edits from %1").arg(source.isEmpty() ? tr("the edit file") : source);
    if (!snapshot() || isLoading()) {
        pendingSteps_.push_back({label, std::move(edits)});
        return;
    }
    whatIf_->apply(std::move(edits), label);
}

NodeId MainWindow::selectTopHotspot() {
    const auto s = snapshot();
    if (!s)
        return {};
    NodeId top;
    double topUs = -1;
    for (NodeId id : s->graph->topoOrder)
        if (s->cost.nodes[id.value].latencyUs > topUs) {
            topUs = s->cost.nodes[id.value].latencyUs;
            top = id;
        }
    hub_->select(top, this);
    graph_->zoomToNode(top); // readable, and clear of the legend and the minimap
    return top;
}

void MainWindow::resetPanels() {
    // A new model: ids, rows and values of the previous one mean nothing here.
    hub_->reset();
    findings_->reset();
    hotspots_->reset();
    inspector_->reset();
    graph_->clearSearch();
}

void MainWindow::showSnapshot(SnapshotPtr s) {
    if (!s)
        return;
    // Re-lay out only when the structure or the fused groups changed, not on every shape edit.
    const std::vector<int> groupOf = drawnGroupOf(*s->graph, *s->analysis);
    const bool newModel = s->modelId != shownModel_;
    if (newModel && comparer_->isActive())
        comparer_->clear(); // a comparison belongs to the model it was made for
    else if (comparer_->isActive())
        comparer_->refresh(); // this state against the other model; showComparison follows
    if (newModel) {
        resetPanels();
        graph_->setModel(s->graph, groupOf);
        shownGroups_ = groupOf;
        shownModel_ = s->modelId;
    } else if (groupOf != shownGroups_ ||
               (s->findingsReady && graph_->graph() && !sameShapes(*graph_->graph(), *s->graph))) {
        // Fused groups changed, or shapes did (the boxes print them): re-lay out in place. Mid-drag states
        // wait for the released one, so a drag never queues layouts.
        graph_->updateModel(s->graph, groupOf);
        shownGroups_ = groupOf;
    }
    std::vector<TensorId> marked;
    for (const auto& q : s->analysis->qdq)
        marked.push_back(q.tensor);
    graph_->setMarkedTensors(marked);
    graph_->setColoring(coloring(*s));
    // The scope boxes' sums and the first view's hotspot (the layout of a new model lands after this).
    graph_->setNodeFigures(nodeFigures(*s->graph, *s->analysis, s->cost));
    hotspots_->setSnapshot(s);
    findings_->setSnapshot(s);
    inspector_->setSnapshot(s);
    compare_->setSnapshot(s);
    plan_->setSnapshot(s);
    charts_->setSnapshot(s);
    whatIf_->setSnapshot(s);
    deployment_->setSnapshot(s);
    updateStatus(*s);
    updateDiagnostics(*s);
    exportAction_->setEnabled(!exporter_->isRunning());
    reloadAction_->setEnabled(true);
    compareAction_->setEnabled(true);
    exportModelAction_->setEnabled(!jobs_->isBusy(JobLane::ModelExport));
    saveAction_->setEnabled(true);
    undo_->setEnabled(s->historyPosition > 0);
    redo_->setEnabled(s->historyPosition < size_t(s->history.size()));
    undo_->setText(s->historyPosition > 0 ? tr("&Undo %1").arg(s->history[int(s->historyPosition) - 1])
                                          : tr("&Undo"));
    redo_->setText(s->historyPosition < size_t(s->history.size())
                       ? tr("&Redo %1").arg(s->history[int(s->historyPosition)])
                       : tr("&Redo"));
    setWindowModified(!s->clean);
    emit updated();
    if (newModel)
        emit loaded();
}

void MainWindow::updateStatus(const Snapshot& s) {
    const QString busy = s.findingsReady ? QString() : tr(" | estimating finding gains...");
    const QString delta = deltaText(s);
    delta_->setText(delta.isEmpty() ? QString() : QStringLiteral(" | ") + delta);
    delta_->setToolTip(delta);
    static_cast<ElidingLabel*>(breakdown_)->setFullText(breakdownText(s));
    // Last: the estimate fits itself to the room the delta (kept whole) leaves it.
    static_cast<EstimateLabel*>(estimate_)->setTexts(estimateText(s) + busy, estimateText(s, false) + busy,
                                                     minimalEstimateText(s));
}

void MainWindow::updateDiagnostics(const Snapshot& s) {
    const Completeness& complete = s.completeness;
    const std::vector<Diagnostic> diagnostics = resultDiagnostics(*s.graph, &*s.analysis, &s.deploy);
    banner_->setCompleteness(complete);
    int warnings = 0;
    QStringList lines;
    for (const auto& d : diagnostics) {
        warnings += d.severity == DiagSeverity::Warning;
        lines << QStringLiteral("%1: %2").arg(QString::fromUtf8(diagSeverityName(d.severity)),
                                              QString::fromStdString(d.text));
    }
    // Partial first: every figure rests on it. Then what may be off, then what was only assumed.
    QString label;
    if (!complete.complete() && !complete.inputsResolved())
        label = tr("\u26a0 PARTIAL: %n input(s) unresolved", nullptr, int(complete.inputs.size()));
    else if (!complete.complete())
        label = tr("\u26a0 PARTIAL: %n node(s) without a shape", nullptr, complete.nodesWithoutShape);
    else if (warnings > 0)
        label = tr("\u26a0 %n warning(s)", nullptr, warnings);
    else if (!diagnostics.empty())
        label = tr("\u24d8 %n note(s)", nullptr, int(diagnostics.size()));
    warning_->setVisible(!label.isEmpty());
    warning_->setText(QStringLiteral("<a href=\"diagnostics\">%1</a>").arg(label.toHtmlEscaped()));
    warning_->setToolTip(lines.join(QLatin1Char('\n')));
    if (diagnostics_)
        diagnostics_->setDiagnostics(complete, diagnostics);
}

DiagnosticsDialog* MainWindow::diagnosticsDialog() const {
    return diagnostics_;
}

void MainWindow::showDiagnostics() {
    if (!diagnostics_) {
        diagnostics_ = new DiagnosticsDialog(this);
        diagnostics_->setAttribute(Qt::WA_DeleteOnClose);
    }
    if (const auto s = snapshot())
        updateDiagnostics(*s); // fills the list, as every later snapshot does while it is open
    diagnostics_->show();
    diagnostics_->raise();
    diagnostics_->activateWindow();
}

bool MainWindow::exportReportTo(const QString& path) {
    QString why;
    if (!exporter_->start(path, &why)) {
        showMessage(QMessageBox::Warning, tr("Export report"), why);
        return false;
    }
    exportAction_->setEnabled(false);
    reportProgress_->setValue(0);
    reportProgress_->show();
    reportCancel_->show();
    return true;
}

void MainWindow::exportReport() {
    const auto s = snapshot();
    if (!s) {
        statusBar()->showMessage(tr("Open a model first"), 5000);
        return;
    }
    QSettings settings;
    QString dir = settings.value(QStringLiteral("reportDir")).toString();
    if (dir.isEmpty()) // the model's folder, never the process's (issue 63)
        dir = QFileInfo(s->modelPath).absolutePath();
    const QString name =
        QFileInfo(s->modelPath).completeBaseName() +
        (s->edits.empty() ? QStringLiteral("-report.pdf") : QStringLiteral("-whatif-report.pdf"));
    const QStringList filters{tr("PDF report (*.pdf)"), tr("Markdown (*.md)"), tr("HTML page (*.html)"),
                              tr("JSON (*.json)")};
    QString filter = filters.front();
    QString path = QFileDialog::getSaveFileName(this, tr("Export report"), QDir(dir).filePath(name),
                                                filters.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty()) {
        // No extension typed: take the chosen filter's ("PDF report (*.pdf)" -> ".pdf").
        const int star = filter.indexOf(QLatin1String("*."));
        path += filter.mid(star + 1, filter.indexOf(QLatin1Char(')'), star) - star - 1);
    }
    settings.setValue(QStringLiteral("reportDir"), QFileInfo(path).absolutePath());
    exportReportTo(path);
}

} // namespace bpu::ui
