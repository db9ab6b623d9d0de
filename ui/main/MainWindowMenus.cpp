// SPDX-License-Identifier: MIT
// MainWindow's menus and toolbars (kept apart from the window's data flow in MainWindow.cpp).
#include "MainWindow.h"

#include "core/target/TargetProfile.h"
#include "ui/graph/GraphView.h"
#include "ui/session/SelectionHub.h"
#include "ui/style/Theme.h"
#include "ui/whatif/DeploymentActions.h"
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

namespace bpu::ui {

namespace {

/// `keys` without repeats: one action listing a key twice makes Qt call it ambiguous and fire nothing.
QList<QKeySequence> unique(QList<QKeySequence> keys) {
    QList<QKeySequence> out;
    for (const auto& k : keys)
        if (!k.isEmpty() && !out.contains(k))
            out << k;
    return out;
}

} // namespace

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Model..."), this, [this] {
        const QString p =
            QFileDialog::getOpenFileName(this, tr("Open ONNX model"), dialogDir(QStringLiteral("model")),
                                         tr("ONNX models (*.onnx);;All files (*)"));
        if (!p.isEmpty()) {
            rememberDir(QStringLiteral("model"), p);
            openModel(p);
        }
    });
    open->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("Open &Project..."), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open what-if project"),
                                                       dialogDir(QStringLiteral("project")),
                                                       tr("BpuScope projects (*.bpuscope)"));
        if (!p.isEmpty()) {
            rememberDir(QStringLiteral("project"), p);
            openProject(p);
        }
    });
    reloadAction_ = file->addAction(tr("Re&load Model"), this, [this] { reload(); });
    reloadAction_->setShortcut(QKeySequence::Refresh);
    reloadAction_->setStatusTip(tr("Load the model file again and re-apply the edits that still fit"));
    reloadAction_->setEnabled(false);
    compareAction_ = file->addAction(tr("&Compare With..."), this, &MainWindow::chooseCompareFile);
    compareAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    compareAction_->setStatusTip(
        tr("Compare the open model node by node with another export of the same network"));
    compareAction_->setEnabled(false);
    file->addSeparator();
    saveAction_ = file->addAction(tr("&Save Project"), this, [this] { saveProject(); });
    saveAction_->setShortcut(QKeySequence::Save);
    saveAction_->setEnabled(false);
    QAction* saveAs = file->addAction(tr("Save Project &As..."), this, [this] { saveProjectAs(); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    exportAction_ = file->addAction(tr("&Export Report..."), this, &MainWindow::exportReport);
    exportAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction_->setStatusTip(
        tr("Write the optimization report of the current state (PDF, Markdown, HTML, JSON)"));
    exportAction_->setEnabled(false);
    exportModelAction_ = file->addAction(tr("Export Edited &Model..."), this, &MainWindow::exportEditedModel);
    exportModelAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportModelAction_->setStatusTip(
        tr("Write the model with the applied edits as ONNX, and the hb_compile config "
           "(YAML) that carries the deployment, placements and precisions beside it"));
    exportModelAction_->setEnabled(false);
    file->addSeparator();
    // closeAllWindows: each window's closeEvent asks about unsaved edits first.
    file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::closeAllWindows);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    undo_ = edit->addAction(tr("&Undo"), controller_, &SessionController::undo);
    undo_->setShortcuts(unique(QKeySequence::keyBindings(QKeySequence::Undo)));
    undo_->setEnabled(false);
    redo_ = edit->addAction(tr("&Redo"), controller_, &SessionController::redo);
    // Qt's X11 binding for Redo is Ctrl+Shift+Z only; Ctrl+Y is what Windows-trained hands and most Linux
    // editors press too (a GUI walk pressed it and nothing happened).
    redo_->setShortcuts(unique(QKeySequence::keyBindings(QKeySequence::Redo) +
                               QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z),
                                                   QKeySequence(Qt::CTRL | Qt::Key_Y)}));
    redo_->setEnabled(false);
    edit->addSeparator();
    // The graph's own Ctrl+F action, widened to the window: one action, so the key is never ambiguous.
    QAction* find = graph_->findAction();
    find->setShortcutContext(Qt::WindowShortcut);
    edit->addAction(find);
    edit->addAction(tr("Select &Top Hotspot"), QKeySequence(Qt::CTRL | Qt::Key_T), this,
                    [this] { selectTopHotspot(); });
    QMenu* go = edit->addMenu(tr("&Go to Node"));
    for (QAction* a : graph_->navigationActions()) {
        a->setShortcutContext(Qt::WindowShortcut);
        go->addAction(a);
    }

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* fit = view->addAction(tr("&Fit Graph"), graph_, &GraphView::fitToView);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addAction(graph_->collapseScopeAction()); // Backspace, while the graph has the focus
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
    // Dark mode follows the system's palette until the user picks one; the choice is remembered.
    darkMode_ = view->addAction(tr("&Dark Mode"));
    darkMode_->setCheckable(true);
    const QString saved = QSettings().value(QStringLiteral("theme")).toString();
    const style::ThemeMode mode = saved == QLatin1String("dark")    ? style::ThemeMode::Dark
                                  : saved == QLatin1String("light") ? style::ThemeMode::Light
                                                                    : style::ThemeMode::System;
    style::applyTheme(mode);
    darkMode_->setChecked(mode == style::ThemeMode::Dark ||
                          (mode == style::ThemeMode::System && style::isDark(style::systemPalette())));
    connect(darkMode_, &QAction::toggled, this, [](bool dark) {
        style::applyTheme(dark ? style::ThemeMode::Dark : style::ThemeMode::Light);
        QSettings().setValue(QStringLiteral("theme"),
                             dark ? QStringLiteral("dark") : QStringLiteral("light"));
    });
    view->addAction(tr("Dark Mode Follows the &System"), this, [this] {
        style::applyTheme(style::ThemeMode::System);
        QSettings().remove(QStringLiteral("theme"));
        QSignalBlocker b(darkMode_);
        darkMode_->setChecked(style::isDark(style::systemPalette()));
    });
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());
    view->addAction(graph_->legendAction());
    view->addAction(graph_->minimapAction());

    QToolBar* tb = addToolBar(tr("Main"));
    tb->setObjectName(QStringLiteral("mainToolbar"));
    tb->addAction(open);
    tb->addAction(exportAction_);
    // The menu's undo/redo name the step ("Undo set_channels ... node=/a/long/name"); on the toolbar that
    // text would push the rest off screen, so the buttons say Undo / Redo and the step goes in the tooltip.
    auto* tbUndo = tb->addAction(tr("Undo"), controller_, &SessionController::undo);
    auto* tbRedo = tb->addAction(tr("Redo"), controller_, &SessionController::redo);
    for (auto [button, action] : {std::pair{tbUndo, undo_}, std::pair{tbRedo, redo_}}) {
        button->setEnabled(false);
        connect(action, &QAction::changed, button, [button = button, action = action] {
            button->setEnabled(action->isEnabled());
            button->setToolTip(QString(action->text()).remove(QLatin1Char('&')) + QStringLiteral(" (") +
                               action->shortcut().toString(QKeySequence::NativeText) + QStringLiteral(")"));
        });
    }
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
            t = QFileDialog::getOpenFileName(this, tr("Target profile"), dialogDir(QStringLiteral("profile")),
                                             tr("Profiles (*.json)"));
            if (!t.isEmpty())
                rememberDir(QStringLiteral("profile"), t);
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
    // How the board runs the model: a session setting beside the target, not an edit (docs/deployment.md).
    QMenu* model = menuBar()->addMenu(tr("&Model"));
    deployment_->addTo(model->addMenu(tr("&Deployment")));
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList list = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& p : list)
        recentMenu_->addAction(p, this, [this, p] {
            if (p.endsWith(QLatin1String(".bpuscope"), Qt::CaseInsensitive))
                openProject(p);
            else
                openModel(p);
        });
    recentMenu_->setEnabled(!list.isEmpty());
}

} // namespace bpu::ui
