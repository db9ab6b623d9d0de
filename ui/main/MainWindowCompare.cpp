// SPDX-License-Identifier: MIT
// MainWindow's File > Compare With...: the other model loads and compares off the GUI thread (ModelComparer);
// the result feeds the delta colour mode and the What-if dock's compare table.
#include "MainWindow.h"

#include "ui/graph/GraphView.h"
#include "ui/graph/NodeColoring.h"
#include "ui/whatif/ComparePanel.h"
#include "ui/whatif/ModelComparer.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>

namespace bpu::ui {

void MainWindow::buildCompare() {
    comparer_ = new ModelComparer(controller_, this);
    connect(comparer_, &ModelComparer::started, this, [this](const QString& path) {
        showDeltaOnCompare_ = true;
        statusBar()->showMessage(tr("Comparing with %1...").arg(QFileInfo(path).fileName()));
    });
    connect(comparer_, &ModelComparer::updated, this, [this] { showComparison(); });
    connect(comparer_, &ModelComparer::failed, this, [this](const QString& why) {
        statusBar()->clearMessage();
        compare_->clearComparison();
        if (auto s = snapshot())
            graph_->setColoring(coloring(*s));
        showMessage(QMessageBox::Critical, tr("Cannot compare"), why);
    });
    connect(comparer_, &ModelComparer::cleared, this, [this] {
        compare_->clearComparison();
        if (auto s = snapshot())
            graph_->setColoring(coloring(*s));
    });
    connect(compare_, &ComparePanel::clearComparisonRequested, comparer_, &ModelComparer::clear);
}

void MainWindow::compareWith(const QString& path) {
    if (!snapshot()) {
        statusBar()->showMessage(tr("Open a model first"), 5000);
        return;
    }
    comparer_->compareWith(path);
}

void MainWindow::chooseCompareFile() {
    // The last folder compared from, else the open model's (another export usually sits beside it).
    QSettings settings;
    QString dir = settings.value(QStringLiteral("compareDir")).toString();
    if (dir.isEmpty())
        if (const auto s = snapshot())
            dir = QFileInfo(s->modelPath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare with another ONNX model"), dir,
                                                      tr("ONNX models (*.onnx);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("compareDir"), QFileInfo(path).absolutePath());
    compareWith(path);
}

void MainWindow::showComparison() {
    const auto c = comparer_->comparison();
    const auto s = snapshot();
    if (!c || !s)
        return;
    const QString other = QFileInfo(comparer_->otherPath()).fileName();
    compare_->setComparison(c, other);
    // A new comparison is read as colours: switch to the delta mode and show the table (once: the user may
    // switch away, and later refreshes after edits leave the view alone).
    if (showDeltaOnCompare_) {
        showDeltaOnCompare_ = false;
        setColorMode(ColorMode::Delta);
        if (auto* dock = qobject_cast<QDockWidget*>(compare_->parentWidget()))
            dock->raise();
    } else {
        graph_->setColoring(coloring(*s));
    }
    const double d = c->latencyMsDelta();
    statusBar()->showMessage(
        tr("Compared with %1: %2 ms per inference there vs here (%3 matched nodes, %4 only "
           "here, %5 only there)")
            .arg(other)
            .arg(d >= 0 ? QStringLiteral("+%1").arg(d, 0, 'f', 3) : QString::number(d, 'f', 3))
            .arg(c->nodes.size())
            .arg(c->unmatchedA.size())
            .arg(c->unmatchedB.size()),
        15000);
}

std::shared_ptr<const NodeColoring> MainWindow::coloring(const Snapshot& s) const {
    if (colorMode_ == ColorMode::Delta && comparer_ && comparer_->comparison() &&
        comparer_->comparison()->a.nodes == int(s.graph->nodes.size()))
        return makeComparisonColoring(*comparer_->comparison(), s,
                                      QFileInfo(comparer_->otherPath()).fileName());
    return makeColoring(colorMode_, s);
}

} // namespace bpu::ui
