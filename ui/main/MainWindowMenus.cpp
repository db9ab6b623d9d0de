// SPDX-License-Identifier: MIT
// MainWindow's menus and toolbars (kept apart from the window's data flow in MainWindow.cpp).
#include "MainWindow.h"

#include "SessionController.h"
#include "core/target/TargetProfile.h"
#include "ui/graph/GraphView.h"
#include "ui/whatif/WhatIfActions.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QToolBar>
#include <QUndoStack>

namespace bpu::ui {

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
    reloadAction_ = file->addAction(tr("Re&load Model"), this, [this] {
        if (const auto s = snapshot())
            openModel(s->modelPath);
    });
    reloadAction_->setShortcut(QKeySequence::Refresh);
    reloadAction_->setStatusTip(tr("Load the model file again (the edits are dropped)"));
    reloadAction_->setEnabled(false);
    compareAction_ = file->addAction(tr("&Compare With..."), this, &MainWindow::chooseCompareFile);
    compareAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    compareAction_->setStatusTip(
        tr("Compare the open model node by node with another export of the same network"));
    compareAction_->setEnabled(false);
    file->addSeparator();
    QAction* save = file->addAction(tr("&Save Project As..."), this, &MainWindow::saveProjectAs);
    save->setShortcut(QKeySequence::SaveAs);
    exportAction_ = file->addAction(tr("&Export Report..."), this, &MainWindow::exportReport);
    exportAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction_->setStatusTip(
        tr("Write the optimization report of the current state (PDF, Markdown, HTML, JSON)"));
    exportAction_->setEnabled(false);
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
    // The graph's own Ctrl+F action, widened to the window: one action, so the key is never ambiguous.
    QAction* find = graph_->findAction();
    find->setShortcutContext(Qt::WindowShortcut);
    edit->addAction(find);
    edit->addAction(tr("Select &Top Hotspot"), QKeySequence(Qt::CTRL | Qt::Key_T), this,
                    [this] { selectTopHotspot(); });

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit Graph"), graph_, &GraphView::fitToView);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    const ColorMode modes[] = {ColorMode::Placement, ColorMode::Padding, ColorMode::Intensity,
                               ColorMode::Latency, ColorMode::Delta};
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
    tb->addAction(exportAction_);
    // The menu's undo/redo name the step ("Undo set_channels ... node=/a/long/name"); on the toolbar that
    // text would push the rest off screen, so the buttons say Undo / Redo and the step goes in the tooltip.
    QUndoStack* stack = controller_->undoStack();
    auto* tbUndo = tb->addAction(tr("Undo"), stack, &QUndoStack::undo);
    auto* tbRedo = tb->addAction(tr("Redo"), stack, &QUndoStack::redo);
    tbUndo->setEnabled(false);
    tbRedo->setEnabled(false);
    connect(stack, &QUndoStack::canUndoChanged, tbUndo, &QAction::setEnabled);
    connect(stack, &QUndoStack::canRedoChanged, tbRedo, &QAction::setEnabled);
    connect(stack, &QUndoStack::undoTextChanged, tbUndo,
            [tbUndo](const QString& t) { tbUndo->setToolTip(tr("Undo %1 (Ctrl+Z)").arg(t)); });
    connect(stack, &QUndoStack::redoTextChanged, tbRedo,
            [tbRedo](const QString& t) { tbRedo->setToolTip(tr("Redo %1 (Ctrl+Shift+Z)").arg(t)); });
    tb->addSeparator();
    tb->addWidget(new QLabel(tr(" Target: "), tb));
    targetBox_ = new QComboBox(tb);
    targetBox_->setObjectName(QStringLiteral("targetBox"));
    for (const auto& [name, path] : builtinTargets())
        targetBox_->addItem(QString::fromStdString(name), QString::fromStdString(name));
    targetBox_->addItem(tr("Profile file..."), QString());
    targetBox_->setToolTip(tr("Target profile: every number is estimated for it"));
    tb->addWidget(targetBox_);
    connect(targetBox_, &QComboBox::activated, this, [this](int i) {
        QString t = targetBox_->itemData(i).toString();
        if (t.isEmpty()) {
            t = QFileDialog::getOpenFileName(this, tr("Target profile"), QString(), tr("Profiles (*.json)"));
            if (t.isEmpty()) {
                const int was = targetBox_->findData(controller_->targetName());
                targetBox_->setCurrentIndex(was >= 0 ? was : 0);
                return;
            }
        }
        setTarget(t);
    });
    tb->addWidget(new QLabel(tr("  Color: "), tb));
    colorBox_ = new QComboBox(tb);
    for (int i = 0; i < 5; ++i)
        colorBox_->addItem(QString(labels[i]).remove(QLatin1Char('&')).remove(tr("Color by ")),
                           int(modes[i]));
    colorBox_->setToolTip(tr("Node colours (Alt+1..5)"));
    tb->addWidget(colorBox_);
    connect(colorBox_, &QComboBox::activated, this,
            [this](int i) { setColorMode(static_cast<ColorMode>(colorBox_->itemData(i).toInt())); });
    tb->addAction(fit);
    QToolBar* wt = addToolBar(tr("What-if"));
    wt->setObjectName(QStringLiteral("whatifToolbar"));
    whatIf_->addTo(menuBar()->addMenu(tr("&What-if")), wt);
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& p : list)
        recentMenu_->addAction(p, this, [this, p] { openModel(p); });
    recentMenu_->setEnabled(!list.isEmpty());
}

} // namespace bpu::ui
