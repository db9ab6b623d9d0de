// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include "SelectionHub.h"
#include "SessionController.h"
#include "core/edit/Edit.h"
#include "core/edit/EditError.h"
#include "core/target/TargetProfile.h"
#include "ui/findings/FindingsPanel.h"
#include "ui/graph/GraphView.h"
#include "ui/hotspots/HotspotPanel.h"
#include "ui/inspector/InspectorPanel.h"
#include "ui/inspector/ShapeEditor.h"
#include "ui/whatif/ComparePanel.h"
#include "ui/whatif/EditCommand.h"
#include "ui/whatif/ProjectFile.h"
#include "ui/whatif/WhatIfActions.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

namespace bpu::ui {

namespace {
constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";
bool interactive() { return QGuiApplication::platformName() != QLatin1String("offscreen"); }
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), controller_(new SessionController(this)), hub_(new SelectionHub(this)) {
    setWindowTitle(QStringLiteral("BpuScope"));
    setAcceptDrops(true);
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
        setWindowTitle(QStringLiteral("BpuScope - %1").arg(QFileInfo(path).fileName()));
    });
    connect(controller_, &SessionController::failed, this, [this](const QString& msg) {
        statusBar()->showMessage(tr("Could not open %1").arg(pendingPath_), 8000);
        if (interactive() && msg != tr("cancelled"))
            QMessageBox::critical(this, tr("Cannot open model"), QStringLiteral("bpuscope: error: ") + msg);
        emit loadFailed(msg);
    });
    connect(controller_, &SessionController::editRejected, this, [this](const QString& why) {
        controller_->undoStack()->undo(); // drop the rejected step (nothing was applied)
        statusBar()->showMessage(tr("Edit rejected: %1").arg(why), 10000);
        if (interactive())
            QMessageBox::warning(this, tr("Edit rejected"), why);
    });
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("windowState")).toByteArray());
}

MainWindow::~MainWindow() = default;

SnapshotPtr MainWindow::snapshot() const { return controller_->snapshot(); }
bool MainWindow::isLoading() const { return controller_->isLoading(); }
void MainWindow::cancelLoad() { controller_->cancelLoad(); }

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
    whatIf_ = new WhatIfActions(controller_, hub_, this);
    auto* dInspector = dock(tr("Inspector"), QStringLiteral("inspector"), inspector_, Qt::RightDockWidgetArea);
    auto* dCompare = dock(tr("What-if"), QStringLiteral("whatif"), compare_, Qt::RightDockWidgetArea);
    tabifyDockWidget(dInspector, dCompare);
    dInspector->raise();
    dock(tr("Findings"), QStringLiteral("findings"), findings_, Qt::LeftDockWidgetArea);
    dock(tr("Hotspots"), QStringLiteral("hotspots"), hotspots_, Qt::BottomDockWidgetArea);
    connect(findings_, &FindingsPanel::applyFix, whatIf_, &WhatIfActions::pushFix);
    connect(inspector_->shapeEditor(), &ShapeEditor::editRequested, whatIf_,
            [this](std::shared_ptr<Edit> e, bool final) { whatIf_->push(std::move(e), final); });
    connect(hub_, &SelectionHub::changed, this, [this](NodeId id, QObject* sender) {
        if (sender == hotspots_)
            graph_->zoomToNode(id);
    });

    estimate_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(260);
    progress_->setTextVisible(true);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, this, &MainWindow::cancelLoad);
    statusBar()->addWidget(estimate_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    resize(1500, 950);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Model..."), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open ONNX model"), QString(),
                                                       tr("ONNX models (*.onnx);;All files (*)"));
        if (!p.isEmpty())
            openModel(p);
    });
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("Open &Project..."), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open what-if project"), QString(),
                                                       tr("BpuScope projects (*.bpuscope)"));
        if (!p.isEmpty())
            openProject(p);
    });
    QAction* save = file->addAction(tr("&Save Project As..."), this, &MainWindow::saveProjectAs);
    save->setShortcut(QKeySequence::SaveAs);
    QAction* report = file->addAction(tr("&Export Report..."), this, &MainWindow::exportReport);
    report->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = controller_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = controller_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence::Redo});
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    QAction* find = edit->addAction(tr("&Find Node..."), this, [this] {
        graph_->setFocus();
        QKeyEvent press(QEvent::KeyPress, Qt::Key_F, Qt::ControlModifier);
        QApplication::sendEvent(graph_, &press);
    });
    find->setShortcut(QKeySequence::Find);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit Graph"), graph_, &GraphView::fitToView);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    const ColorMode modes[] = {ColorMode::Placement, ColorMode::Padding, ColorMode::Intensity, ColorMode::Latency,
                               ColorMode::Delta};
    const QString labels[] = {tr("Color by &placement"), tr("Color by pa&dding waste"),
                              tr("Color by &intensity / bound"), tr("Color by &latency share"),
                              tr("Color by latency &delta")};
    for (int i = 0; i < 5; ++i) {
        QAction* a = view->addAction(labels[i], this, [this, m = modes[i]] { setColorMode(m); });
        a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));
    }
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());

    QToolBar* tb = addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("mainToolbar"));
    tb->addAction(open);
    tb->addAction(undo);
    tb->addAction(redo);
    tb->addSeparator();
    tb->addWidget(new QLabel(tr(" Target: "), tb));
    targetBox_ = new QComboBox(tb);
    for (const auto& [name, path] : builtinTargets())
        targetBox_->addItem(QString::fromStdString(name), QString::fromStdString(name));
    targetBox_->addItem(tr("Profile file..."), QString());
    tb->addWidget(targetBox_);
    connect(targetBox_, &QComboBox::activated, this, [this](int i) {
        QString t = targetBox_->itemData(i).toString();
        if (t.isEmpty()) {
            t = QFileDialog::getOpenFileName(this, tr("Target profile"), QString(), tr("Profiles (*.json)"));
            if (t.isEmpty())
                return;
            targetBox_->insertItem(i, QFileInfo(t).fileName(), t);
            targetBox_->setCurrentIndex(i);
        }
        setTarget(t);
    });
    tb->addWidget(new QLabel(tr("  Color: "), tb));
    colorBox_ = new QComboBox(tb);
    for (int i = 0; i < 5; ++i)
        colorBox_->addItem(QString(labels[i]).remove(QLatin1Char('&')).remove(tr("Color by ")), int(modes[i]));
    tb->addWidget(colorBox_);
    connect(colorBox_, &QComboBox::activated, this,
            [this](int i) { setColorMode(static_cast<ColorMode>(colorBox_->itemData(i).toInt())); });
    tb->addAction(fit);
    QToolBar* wt = addToolBar(tr("What-if"));
    wt->setObjectName(QStringLiteral("whatifToolbar"));
    whatIf_->addTo(menuBar()->addMenu(tr("&What-if")), wt);
}

void MainWindow::openModel(const QString& path) {
    pendingPath_ = path;
    const QString target = targetBox_ ? targetBox_->currentData().toString() : QStringLiteral("s100");
    controller_->open(path, target.isEmpty() ? QStringLiteral("s100") : target);
}

void MainWindow::openProject(const QString& path) {
    try {
        Project p = loadProject(path);
        const QString hash = fileSha256(p.modelPath);
        if (!p.sha256.isEmpty() && hash != p.sha256 && interactive())
            QMessageBox::warning(this, tr("Project"), tr("%1 changed since the project was saved; the edits may no "
                                                         "longer fit.").arg(p.modelPath));
        setTarget(p.target);
        pendingEdits_ = {{"edits", p.edits}};
        openModel(p.modelPath);
    } catch (const std::exception& e) {
        if (interactive())
            QMessageBox::critical(this, tr("Cannot open project"), QString::fromStdString(e.what()));
        emit loadFailed(QString::fromStdString(e.what()));
    }
}

void MainWindow::setTarget(const QString& target) {
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

void MainWindow::applyEditList(const nlohmann::json& edits) {
    if (!snapshot()) {
        pendingEdits_ = edits;
        return;
    }
    whatIf_->pushFix(edits, tr("edit file"));
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
    if (newModel || groupOf != shownGroups_) {
        graph_->setModel(s->graph, groupOf);
        shownGroups_ = groupOf;
        shownModel_ = s->modelId;
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
    whatIf_->setSnapshot(s);
    updateStatus(*s);
    if (!pendingEdits_.is_null() && !pendingEdits_.empty()) {
        nlohmann::json e = pendingEdits_;
        pendingEdits_ = nullptr;
        whatIf_->pushFix(e, tr("edit file"));
    }
    emit updated();
    if (newModel)
        emit loaded();
}

void MainWindow::updateStatus(const Snapshot& s) {
    const auto& c = s.cost;
    const auto& a = s.analysis.summary;
    QString text = tr("%1: %2 ms/image, %3 FPS (batch %4) | BPU %5, CPU %6, folded %7 | %8 segment(s) | Q/DQ %9 "
                      "passes | padding waste %10%")
                       .arg(QString::fromStdString(s.target->name))
                       .arg(c.perImageMs, 0, 'f', 3)
                       .arg(c.fps, 0, 'f', 1)
                       .arg(c.batch)
                       .arg(a.bpuNodes)
                       .arg(a.cpuNodes)
                       .arg(a.foldedNodes)
                       .arg(a.bpuSegments)
                       .arg(a.qdqPasses)
                       .arg(a.paddingWasteRatio * 100, 0, 'f', 1);
    if (std::abs(c.fps - s.baseline.fps) > 1e-6) {
        const double d = (c.fps / s.baseline.fps - 1) * 100;
        text += tr(" | vs baseline: %1 ms/image, %2%3% FPS")
                    .arg(c.perImageMs - s.baseline.perImageMs, 0, 'f', 3)
                    .arg(d >= 0 ? QStringLiteral("+") : QString())
                    .arg(d, 0, 'f', 1);
    }
    if (!s.findingsReady)
        text += tr(" | estimating finding gains...");
    estimate_->setText(text);
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList list = s.value(QLatin1String(kRecentKey)).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent)
        list.removeLast();
    s.setValue(QLatin1String(kRecentKey), list);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = QSettings().value(QLatin1String(kRecentKey)).toStringList();
    for (const QString& p : list)
        recentMenu_->addAction(p, this, [this, p] { openModel(p); });
    recentMenu_->setEnabled(!list.isEmpty());
}

void MainWindow::saveProjectAs() {
    auto s = snapshot();
    if (!s)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Save what-if project"), QString(),
                                                      tr("BpuScope projects (*.bpuscope)"));
    if (path.isEmpty())
        return;
    Project p;
    p.modelPath = QFileInfo(s->modelPath).absoluteFilePath();
    p.sha256 = fileSha256(p.modelPath);
    p.target = controller_->targetName();
    p.edits = s->edits;
    const QString err = saveProject(path, p);
    if (!err.isEmpty())
        QMessageBox::critical(this, tr("Save project"), err);
    else
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
}

void MainWindow::exportReport() {
    statusBar()->showMessage(tr("Report export: use bpuscope-cli report (GUI export lands with the report module)"),
                             8000);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls())
        for (const QUrl& u : e->mimeData()->urls())
            if (u.isLocalFile() && (u.toLocalFile().endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive) ||
                                    u.toLocalFile().endsWith(QLatin1String(".bpuscope"), Qt::CaseInsensitive))) {
                e->acceptProposedAction();
                return;
            }
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile()) {
            const QString p = u.toLocalFile();
            if (p.endsWith(QLatin1String(".bpuscope"), Qt::CaseInsensitive))
                openProject(p);
            else
                openModel(p);
            e->acceptProposedAction();
            return;
        }
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings s;
    s.setValue(QStringLiteral("geometry"), saveGeometry());
    s.setValue(QStringLiteral("windowState"), saveState());
    QMainWindow::closeEvent(e);
}

} // namespace bpu::ui
