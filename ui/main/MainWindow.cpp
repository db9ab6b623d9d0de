// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include "ReportExporter.h"
#include "SelectionHub.h"
#include "SessionController.h"
#include "StatusText.h"
#include "ui/charts/ChartsPanel.h"
#include "ui/findings/FindingsPanel.h"
#include "ui/graph/GraphView.h"
#include "ui/hotspots/HotspotPanel.h"
#include "ui/inspector/InspectorPanel.h"
#include "ui/inspector/ShapeEditor.h"
#include "ui/whatif/ComparePanel.h"
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
#include <QUndoStack>

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
    , controller_(new SessionController(this))
    , hub_(new SelectionHub(this)) {
    setWindowTitle(QStringLiteral("BpuScope"));
    setAcceptDrops(true);
    exporter_ = new ReportExporter(controller_, this);
    buildUi();
    buildMenus();
    connect(controller_, &SessionController::snapshotChanged, this, &MainWindow::showSnapshot);
    connect(controller_, &SessionController::loadProgress, this, [this](double f, const QString& stage) {
        progress_->setValue(int(f * 1000));
        progress_->setFormat(stage + QStringLiteral(" %p%"));
    });
    connect(controller_, &SessionController::busyChanged, this, [this](bool busy) {
        progress_->setVisible(busy);
        cancel_->setVisible(busy);
    });
    connect(controller_, &SessionController::loaded, this, [this](const QString& path) {
        addRecent(path);
        setWindowTitle(QStringLiteral("BpuScope - %1[*]").arg(QFileInfo(path).fileName()));
        setWindowModified(false);
    });
    connect(controller_, &SessionController::failed, this, [this](const QString& msg) {
        const auto s = snapshot();
        const QString kept = s ? tr("; %1 stays open").arg(QFileInfo(s->modelPath).fileName()) : QString();
        if (msg == QLatin1String("cancelled")) {
            statusBar()->showMessage(tr("Loading %1 cancelled%2").arg(pendingPath_, kept), 8000);
        } else {
            statusBar()->showMessage(tr("Could not open %1%2").arg(pendingPath_, kept), 8000);
            showMessage(QMessageBox::Critical, tr("Cannot open model"), msg);
        }
        pendingEdits_ = nullptr; // a project's edits belonged to the model that did not open
        emit loadFailed(msg);
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
    connect(controller_, &SessionController::editRejected, this, [this](const QString& why) {
        controller_->undoStack()->undo(); // drop the rejected step (nothing was applied)
        statusBar()->showMessage(tr("Edit rejected: %1").arg(why), 10000);
        showMessage(QMessageBox::Warning, tr("Edit rejected"), why);
        emit editRejected(why);
    });
    // The title's [*] marks edits not saved in a project (the undo stack's clean state is the last save).
    connect(controller_->undoStack(), &QUndoStack::cleanChanged, this,
            [this](bool clean) { setWindowModified(!clean); });
    connect(exporter_, &ReportExporter::progress, this, [this](double f, const QString& stage) {
        reportProgress_->setValue(int(f * 1000));
        reportProgress_->setFormat(tr("Report: %1 %p%").arg(stage));
    });
    connect(exporter_, &ReportExporter::finished, this, [this](const QString& path, const QString& error) {
        reportProgress_->hide();
        reportCancel_->hide();
        exportAction_->setEnabled(snapshot() != nullptr);
        if (error.isEmpty())
            statusBar()->showMessage(tr("Wrote the report to %1").arg(path), 10000);
        else if (error == QLatin1String("cancelled"))
            statusBar()->showMessage(tr("Report export cancelled; nothing was written"), 8000);
        else
            showMessage(QMessageBox::Critical, tr("Cannot export the report"), error);
        emit reportFinished(path, error);
    });
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

void MainWindow::buildUi() {
    graph_ = new GraphView(this);
    setCentralWidget(graph_);
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
    compare_ = new ComparePanel(controller_->undoStack(), this);
    charts_ = new ChartsPanel(hub_, this);
    whatIf_ = new WhatIfActions(controller_, hub_, this);
    auto* dInspector =
        dock(tr("Inspector"), QStringLiteral("inspector"), inspector_, Qt::RightDockWidgetArea);
    auto* dCompare = dock(tr("What-if"), QStringLiteral("whatif"), compare_, Qt::RightDockWidgetArea);
    tabifyDockWidget(dInspector, dCompare);
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
    connect(findings_, &FindingsPanel::applyFix, whatIf_,
            [this](const nlohmann::json& fix, const QString& title) {
                whatIf_->pushFix(fix, tr("Fix: %1").arg(title));
            });
    connect(inspector_->shapeEditor(), &ShapeEditor::editRequested, whatIf_,
            [this](EditPtr e, bool final) { whatIf_->push(std::move(e), final); });
    connect(hub_, &SelectionHub::changed, this, [this](NodeId id, QObject* sender) {
        if (sender == hotspots_ || sender == charts_)
            graph_->zoomToNode(id);
    });

    estimate_ = new QLabel(this);
    estimate_->setTextFormat(Qt::RichText);
    delta_ = new QLabel(this);
    delta_->setTextFormat(Qt::RichText);
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
    statusBar()->addWidget(delta_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(reportProgress_);
    statusBar()->addPermanentWidget(reportCancel_);
    resize(1500, 950);
}

void MainWindow::showMessage(QMessageBox::Icon icon, const QString& title, const QString& text) {
    // Non-blocking (open(), not exec()): loads and exports keep running and tests can read the box.
    auto* box = new QMessageBox(icon, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
    lastMessage_ = box;
    emit messageShown(text);
}

void MainWindow::openModel(const QString& path) {
    pendingPath_ = path;
    const QString target = targetBox_ ? targetBox_->currentData().toString() : QStringLiteral("s100");
    controller_->open(path, target.isEmpty() ? QStringLiteral("s100") : target);
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
        graph_->setColoring(makeColoring(m, *s));
}

void MainWindow::applyEditList(const nlohmann::json& edits, const QString& source) {
    pendingEditsTitle_ = tr("Edits from %1").arg(source.isEmpty() ? tr("the edit file") : source);
    if (!snapshot()) {
        pendingEdits_ = edits;
        return;
    }
    whatIf_->pushFix(edits, pendingEditsTitle_);
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
    return top;
}

void MainWindow::showSnapshot(SnapshotPtr s) {
    if (!s)
        return;
    // Re-lay out only when the structure or the fused groups changed, not on every shape edit.
    std::vector<int> groupOf(s->graph->nodes.size(), -1);
    for (const auto& g : s->analysis.groups)
        if (g.fused)
            for (NodeId n : g.nodes)
                groupOf[n.value] = int(g.id.value);
    const bool newModel = s->modelId != shownModel_;
    if (newModel) {
        hub_->select(NodeId{}, this); // ids of the previous model mean nothing in this one
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
    for (const auto& q : s->analysis.qdq)
        marked.push_back(q.tensor);
    graph_->setMarkedTensors(marked);
    graph_->setColoring(makeColoring(colorMode_, *s));
    hotspots_->setSnapshot(s);
    findings_->setSnapshot(s);
    inspector_->setSnapshot(s);
    compare_->setSnapshot(s);
    charts_->setSnapshot(s);
    whatIf_->setSnapshot(s);
    updateStatus(*s);
    exportAction_->setEnabled(!exporter_->isRunning());
    reloadAction_->setEnabled(true);
    if (!pendingEdits_.is_null() && !pendingEdits_.empty()) {
        nlohmann::json e = pendingEdits_;
        pendingEdits_ = nullptr;
        whatIf_->pushFix(e, pendingEditsTitle_);
    }
    emit updated();
    if (newModel)
        emit loaded();
}

void MainWindow::updateStatus(const Snapshot& s) {
    QString text = estimateText(s);
    if (!s.findingsReady)
        text += tr(" | estimating finding gains...");
    estimate_->setText(text);
    const QString delta = deltaText(s);
    delta_->setText(delta.isEmpty() ? QString() : QStringLiteral(" | ") + delta);
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
    const QString dir = settings.value(QStringLiteral("reportDir")).toString();
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
