// SPDX-License-Identifier: MIT
// MainWindow's files: projects, reload, recent files, drag and drop, unsaved edits, the saved layout.
#include "MainWindow.h"

#include "InputShapeDialog.h"
#include "core/edit/EditList.h"
#include "core/util/SafeFile.h"
#include "ui/session/ProjectFile.h"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>

namespace bpu::ui {

bool MainWindow::openProject(const QString& path) {
    if (!maybeSave(tr("opening %1").arg(QFileInfo(path).fileName())))
        return false;
    Project p;
    try {
        p = loadProject(path);
    } catch (const std::exception& e) {
        showMessage(QMessageBox::Critical, tr("Cannot open project"), QString::fromStdString(e.what()));
        emit loadFailed(QString::fromStdString(e.what()));
        return false;
    }
    // A missing model is one message, and nothing of the project touches the model already open.
    // A FIFO or a device is named as such and never opened (hashing it would block or never end).
    const QFileInfo model(p.modelPath);
    QString problem;
    if (!model.exists() && !model.isSymLink())
        problem = tr("%1: its model %2 does not exist (moved or deleted?); nothing was opened")
                      .arg(path, p.modelPath);
    else
        try {
            checkUserFile(p.modelPath.toStdString(), {"ONNX file", file_limits::kModel});
        } catch (const std::exception& e) {
            problem = tr("%1: its model cannot be opened: %2; nothing was opened")
                          .arg(path, QString::fromStdString(e.what()));
        }
    if (!problem.isEmpty()) {
        const QString msg = problem;
        showMessage(QMessageBox::Critical, tr("Cannot open project"), msg);
        emit loadFailed(msg);
        return false;
    }
    EditList edits;
    std::optional<EditList> baselineList;
    std::vector<KeptEdit> kept;
    try {
        edits = editListFromJson(p.edits);
        if (p.baselineList)
            try {
                baselineList = editListFromJson(*p.baselineList);
            } catch (const std::exception& e) {
                throw std::runtime_error(std::string("baseline_edits: ") + e.what());
            }
        for (size_t i = 0; i < p.kept.size(); ++i) {
            const ProjectKeptEdit& k = p.kept[i];
            try {
                kept.push_back(
                    {editFromJson(k.edit), QString::fromStdString(k.reason), QString::fromStdString(k.from)});
            } catch (const std::exception& e) {
                throw std::runtime_error("edits_not_applied, entry " + std::to_string(i + 1) + ": " +
                                         e.what());
            }
        }
    } catch (const std::exception& e) {
        const QString msg = tr("%1: %2").arg(path, QString::fromStdString(e.what()));
        showMessage(QMessageBox::Critical, tr("Cannot open project"), msg);
        emit loadFailed(msg);
        return false;
    }
    const bool changed = !p.sha256.isEmpty() && fileSha256(p.modelPath) != p.sha256;
    pendingNote_ = changed ? tr("%1 changed since the project was saved (its content hash differs): the "
                                "project's edits were re-applied where they still fit.")
                                 .arg(p.modelPath)
                           : QString();
    OpenRequest r;
    r.path = p.modelPath;
    r.target = p.target;
    r.deploy = p.deploy;
    r.objective = p.objective.value_or(Objective::Latency);
    // The baseline the project saved (issue 63): its leading edits are a step of their own, the baseline set
    // after it.
    const size_t base = baselineList ? 0 : std::min(p.baselineEdits, edits.size());
    r.baselineList = std::move(baselineList); // a baseline the edits do not start with: its own list
    if (base > 0) {
        r.steps.push_back({tr("Baseline from %1").arg(QFileInfo(path).fileName()),
                           EditList(edits.begin(), edits.begin() + long(base))});
        edits.erase(edits.begin(), edits.begin() + long(base));
        r.baselineStep = 1;
    }
    if (!edits.empty())
        r.steps.push_back({tr("Edits from %1").arg(QFileInfo(path).fileName()), std::move(edits)});
    r.kept = std::move(kept);
    r.lenient = true;
    r.clean = !changed; // a changed model no longer has what was saved
    r.projectPath = path;
    open(std::move(r));
    return true;
}

bool MainWindow::saveProject() {
    if (controller_->projectPath().isEmpty())
        return saveProjectAs();
    const QString path = controller_->projectPath();
    controller_->saveProject(path, [this, path](const QString& error) {
        if (!error.isEmpty())
            showMessage(QMessageBox::Critical, tr("Save project"), error);
        else
            statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    });
    return true;
}

bool MainWindow::saveProjectAs() {
    if (!snapshot())
        return false;
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save what-if project"),
                                     !controller_->projectPath().isEmpty()
                                         ? controller_->projectPath()
                                         : QDir(dialogDir(QStringLiteral("project")))
                                               .filePath(QFileInfo(snapshot()->modelPath).completeBaseName() +
                                                         QStringLiteral(".bpuscope")),
                                     tr("BpuScope projects (*.bpuscope)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".bpuscope");
    controller_->saveProject(path, [this, path](const QString& error) {
        if (!error.isEmpty()) {
            showMessage(QMessageBox::Critical, tr("Save project"), error);
            return;
        }
        addRecent(path);
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    });
    return true;
}

QString MainWindow::dialogDir(const QString& key) const {
    const QString last = QSettings().value(QStringLiteral("dialogDir/") + key).toString();
    if (!last.isEmpty() && QFileInfo(last).isDir())
        return last;
    if (const auto s = snapshot(); s && !s->modelPath.isEmpty())
        return QFileInfo(s->modelPath).absolutePath();
    return QDir::homePath();
}

void MainWindow::rememberDir(const QString& key, const QString& path) {
    QSettings().setValue(QStringLiteral("dialogDir/") + key, QFileInfo(path).absolutePath());
}

bool MainWindow::maybeSave(const QString& what) {
    if (!hasUnsavedEdits())
        return true;
    const auto s = snapshot();
    // Issue 63: what is unsaved, each named (a deployment or a baseline is work too, and "0 edit steps" was
    // what an undo to the loaded state said).
    QMessageBox box(QMessageBox::Question, tr("Unsaved work"),
                    tr("%1 has work not saved in a project: %2. Save it before %3?")
                        .arg(QFileInfo(s->modelPath).fileName(),
                             s->unsaved.isEmpty() ? tr("the edits") : s->unsaved.join(QStringLiteral(", ")),
                             what),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("unsavedPrompt"));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save: {
        QString path = controller_->projectPath();
        if (path.isEmpty()) {
            path = QFileDialog::getSaveFileName(
                this, tr("Save what-if project"),
                QDir(dialogDir(QStringLiteral("project")))
                    .filePath(QFileInfo(s->modelPath).completeBaseName() + QStringLiteral(".bpuscope")),
                tr("BpuScope projects (*.bpuscope)"));
            if (path.isEmpty())
                return false;
            if (QFileInfo(path).suffix().isEmpty())
                path += QStringLiteral(".bpuscope");
        }
        // The save runs on the session's worker after what is queued: wait for it before the model goes.
        QEventLoop loop;
        QString error;
        controller_->saveProject(path, [&loop, &error](const QString& e) {
            error = e;
            loop.quit();
        });
        loop.exec();
        if (!error.isEmpty()) {
            showMessage(QMessageBox::Critical, tr("Save project"), error);
            return false;
        }
        addRecent(path);
        return true;
    }
    case QMessageBox::Discard:
        return true;
    default:
        return false;
    }
}

void MainWindow::promptInputShapes(const QStringList& warnings) {
    const auto s = snapshot();
    if (!s)
        return;
    std::vector<InputShapeDialog::Input> inputs;
    for (TensorId in : s->graph->inputs) {
        const Tensor& t = s->graph->tensor(in);
        if (!t.shape.rankKnown || !t.shape.fullyKnown())
            inputs.push_back({QString::fromStdString(t.name),
                              t.shape.rankKnown ? t.shape.dims : std::vector<int64_t>{}, t.shape.symbols});
    }
    if (inputs.empty())
        return;
    if (shapePrompt_)
        shapePrompt_->close();
    auto* dialog = new InputShapeDialog(inputs, warnings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    shapePrompt_ = dialog;
    const QString path = s->modelPath;
    connect(dialog, &InputShapeDialog::chosen, this, [this, path](const InputShapeDialog::Shapes& shapes) {
        OpenRequest r;
        r.path = path;
        r.target = controller_->targetName();
        r.inputShapes = shapes;
        r.projectPath = controller_->projectPath();
        if (const auto now = snapshot())
            r.deploy = now->deploy;
        open(std::move(r));
    });
    dialog->open();
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList list = s.value(QStringLiteral("recentFiles")).toStringList();
    const QString abs = QFileInfo(path).absoluteFilePath();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > 10)
        list.removeLast();
    s.setValue(QStringLiteral("recentFiles"), list);
    rebuildRecentMenu();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls())
        for (const QUrl& u : e->mimeData()->urls())
            if (u.isLocalFile() &&
                (u.toLocalFile().endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive) ||
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
    if (!maybeSave(tr("quitting"))) {
        e->ignore();
        return;
    }
    QSettings s;
    s.setValue(QStringLiteral("geometry"), saveGeometry());
    s.setValue(QStringLiteral("windowState"), saveState());
    QMainWindow::closeEvent(e);
}

} // namespace bpu::ui
