// SPDX-License-Identifier: MIT
// MainWindow's files: projects, recent files, drag and drop, the saved layout.
#include "MainWindow.h"

#include "SessionController.h"
#include "core/edit/EditList.h"
#include "ui/whatif/ProjectFile.h"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>

namespace bpu::ui {

void MainWindow::openProject(const QString& path) {
    try {
        Project p = loadProject(path);
        const QString hash = fileSha256(p.modelPath);
        if (!p.sha256.isEmpty() && hash != p.sha256)
            showMessage(
                QMessageBox::Warning, tr("Project"),
                tr("%1 changed since the project was saved; the edits may no longer fit.").arg(p.modelPath));
        setTarget(p.target);
        pendingEdits_ = {{"edits", p.edits}};
        pendingEditsTitle_ = tr("Edits from %1").arg(QFileInfo(path).fileName());
        openModel(p.modelPath);
    } catch (const std::exception& e) {
        showMessage(QMessageBox::Critical, tr("Cannot open project"), QString::fromStdString(e.what()));
        emit loadFailed(QString::fromStdString(e.what()));
    }
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
    p.edits = editListToJson(s->edits)["edits"];
    const QString err = saveProject(path, p);
    if (!err.isEmpty())
        showMessage(QMessageBox::Critical, tr("Save project"), err);
    else {
        controller_->undoStack()->setClean();
        statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
    }
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
    QSettings s;
    s.setValue(QStringLiteral("geometry"), saveGeometry());
    s.setValue(QStringLiteral("windowState"), saveState());
    QMainWindow::closeEvent(e);
}

} // namespace bpu::ui
