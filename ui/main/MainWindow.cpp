// SPDX-License-Identifier: MIT
#include "MainWindow.h"

#include "core/model/ImportError.h"
#include "core/model/ModelImporter.h"

#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTextBrowser>
#include <QtConcurrent/QtConcurrentRun>

namespace bpu::ui {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentFiles");
} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("BpuScope"));
    setAcceptDrops(true);
    summary_ = new QTextBrowser(this);
    summary_->setHtml(QStringLiteral("<h2>BpuScope</h2><p>Open an ONNX model (Ctrl+O) or drop one here.</p>"));
    setCentralWidget(summary_);

    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(220);
    progress_->hide();
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->hide();
    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    connect(cancel_, &QPushButton::clicked, this, &MainWindow::cancelLoad);
    connect(&watcher_, &QFutureWatcherBase::finished, this, &MainWindow::onLoadFinished);
    connect(this, &MainWindow::loadProgress, this, [this](double f, const QString& stage) {
        progress_->setValue(static_cast<int>(f * 1000));
        status_->setText(tr("Loading: %1").arg(stage));
    }, Qt::QueuedConnection);
    buildMenus();
    resize(1200, 800);
}

MainWindow::~MainWindow() {
    cancelLoad();
    watcher_.waitForFinished();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open..."), this, [this] {
        QString p = QFileDialog::getOpenFileName(this, tr("Open ONNX model"), QString(),
                                                 tr("ONNX models (*.onnx);;All files (*)"));
        if (!p.isEmpty())
            openModel(p);
    });
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::openModel(const QString& path) {
    if (watcher_.isRunning()) {
        cancelLoad();
        watcher_.waitForFinished();
    }
    pendingPath_ = path;
    cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
    progress_->setValue(0);
    progress_->show();
    cancel_->show();
    status_->setText(tr("Loading %1").arg(path));
    auto flag = cancelFlag_;
    const std::string file = path.toStdString();
    lastError_.clear();
    auto* self = this;
    watcher_.setFuture(QtConcurrent::run([file, flag, self]() -> std::shared_ptr<const LoadedModel> {
        ImportOptions opt;
        opt.progress.cancel = flag.get();
        opt.progress.report = [self](double f, std::string_view stage) {
            emit self->loadProgress(f, QString::fromUtf8(stage.data(), static_cast<int>(stage.size())));
        };
        auto m = std::make_shared<LoadedModel>();
        m->graph = ModelImporter::load(file, opt);
        m->metrics = computeAllMetrics(m->graph, &m->totals);
        return m;
    }));
}

void MainWindow::cancelLoad() {
    if (cancelFlag_)
        cancelFlag_->store(true);
}

void MainWindow::onLoadFinished() {
    progress_->hide();
    cancel_->hide();
    try {
        auto result = watcher_.result();
        model_ = std::move(result);
        addRecent(pendingPath_);
        showModel();
        emit loaded();
    } catch (const Cancelled&) {
        status_->setText(tr("Loading cancelled; kept the previous model"));
        emit loadFailed(tr("cancelled"));
    } catch (const std::exception& e) {
        lastError_ = QString::fromStdString(e.what());
        status_->setText(tr("Could not open %1").arg(pendingPath_));
        if (QGuiApplication::platformName() != QLatin1String("offscreen"))
            QMessageBox::critical(this, tr("Cannot open model"), QStringLiteral("bpuscope: error: ") + lastError_);
        emit loadFailed(lastError_);
    }
}

void MainWindow::showModel() {
    if (!model_)
        return;
    summary_->setHtml(summaryHtml(*model_));
    setWindowTitle(QStringLiteral("BpuScope - %1").arg(QFileInfo(QString::fromStdString(model_->graph.path)).fileName()));
    status_->setText(tr("%1 nodes, %2 GMACs").arg(model_->graph.nodes.size()).arg(double(model_->totals.macs) / 1e9, 0, 'f', 3));
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList list = s.value(kRecentKey).toStringList();
    QString abs = QFileInfo(path).absoluteFilePath();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecent)
        list.removeLast();
    s.setValue(kRecentKey, list);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = QSettings().value(kRecentKey).toStringList();
    for (const QString& p : list)
        recentMenu_->addAction(p, this, [this, p] { openModel(p); });
    recentMenu_->setEnabled(!list.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls())
        for (const QUrl& u : e->mimeData()->urls())
            if (u.isLocalFile() && u.toLocalFile().endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive)) {
                e->acceptProposedAction();
                return;
            }
}

void MainWindow::dropEvent(QDropEvent* e) {
    for (const QUrl& u : e->mimeData()->urls())
        if (u.isLocalFile()) {
            openModel(u.toLocalFile());
            e->acceptProposedAction();
            return;
        }
}

} // namespace bpu::ui
