// SPDX-License-Identifier: MIT
// File > Export Edited Model (issue 51): the current state written as an ONNX model for hb_compile with its
// hb_compile config beside it, through the same core call as `bpuscope-cli export --yaml`.
#include "MainWindow.h"

#include "core/deploy/DeployYamlWriter.h"
#include "core/edit/Edit.h"
#include "core/io/EditedModelExport.h"
#include "ui/session/OutputCheck.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>

namespace bpu::ui {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// What the export wrote and what the user must know before compiling it: the re-initialised weights
/// (retrain), the copied weight files, the exporter's warnings, what the config cannot carry.
QString exportSummary(const EditedModelExport& e, const Snapshot& s, const QString& onnx,
                      const QString& yaml) {
    QStringList parts;
    parts << QObject::tr("Wrote %1 (%2 nodes; estimated %3 ms per image) and its hb_compile config %4 (%5).")
                 .arg(onnx)
                 .arg(s.graph->nodes.size())
                 .arg(s.cost.perImageMs, 0, 'f', 3)
                 .arg(yaml, qs(describeDeploy(e.compiled, *s.graph)));
    for (const auto& line : exportCostLines(s.edits))
        parts << QObject::tr("What the exported changes cost: %1").arg(qs(line));
    if (const std::string text = reinitialisedText(e.onnx.reinitialised); !text.empty())
        parts << qs(text);
    for (const auto& f : e.onnx.copiedFiles)
        parts << QObject::tr("Copied weights: %1").arg(qs(f));
    for (const auto& m : e.onnx.warnings)
        parts << QObject::tr("Warning: %1").arg(qs(m));
    for (const auto& n : e.notes)
        parts << QObject::tr("Note: %1").arg(qs(n));
    return parts.join(QStringLiteral("\n\n"));
}

} // namespace

bool MainWindow::exportEditedModelTo(const QString& onnxPath) {
    const auto s = snapshot();
    if (!s) {
        statusBar()->showMessage(tr("Open a model first"), 5000);
        return false;
    }
    // An idealized what-if is the cost of a waste, not a change anyone can make: refused by name.
    if (const auto idealized = idealizedEdits(s->edits); !idealized.empty()) {
        QStringList names;
        for (const auto& i : idealized)
            names << qs(i);
        showMessage(
            QMessageBox::Warning, tr("Export edited model"),
            tr("The state holds %n idealized what-if(s), which no model file can carry:\n- %1\n\nUndo "
               "them (or go back in the history to a step before them) and export again.",
               nullptr, int(idealized.size()))
                .arg(names.join(QStringLiteral("\n- "))));
        return false;
    }
    const QFileInfo info(onnxPath);
    const QString yaml = info.dir().filePath(info.completeBaseName() + QStringLiteral(".yaml"));
    // The outputs' rules: never the open model, its weights, or a folder; a link is written through.
    for (const QString& out : {onnxPath, yaml}) {
        QString refused;
        checkedOutputPath(out, s->graph.get(), &refused);
        if (!refused.isEmpty()) {
            showMessage(QMessageBox::Warning, tr("Export edited model"), refused);
            return false;
        }
    }
    exportModelAction_->setEnabled(false);
    statusBar()->showMessage(tr("Writing %1 and %2...").arg(info.fileName(), QFileInfo(yaml).fileName()));
    const SnapshotPtr at = s;
    controller_->exportModel(
        s->modelId, onnxPath, yaml,
        [this, onnxPath, yaml, at](JobOutcome outcome, std::shared_ptr<const EditedModelExport> e,
                                   const QString& error) {
            exportModelAction_->setEnabled(snapshot() != nullptr);
            if (outcome == JobOutcome::Cancelled) {
                statusBar()->showMessage(tr("Model export cancelled"), 6000);
                emit modelExported(onnxPath, QString(), QStringLiteral("cancelled"));
                return;
            }
            if (outcome != JobOutcome::Done || !e) {
                // Not "Writing ..." behind the error: nothing was written.
                statusBar()->showMessage(tr("Model export failed: nothing written"), 10000);
                showMessage(QMessageBox::Critical, tr("Export edited model"), error);
                emit modelExported(onnxPath, QString(), error.isEmpty() ? tr("failed") : error);
                return;
            }
            const QString summary = exportSummary(*e, *at, onnxPath, yaml);
            statusBar()->showMessage(tr("Wrote %1 and %2").arg(onnxPath, yaml), 10000);
            const bool caveats = !e->onnx.reinitialised.empty() || !e->onnx.warnings.empty() ||
                                 !exportCostLines(at->edits).empty();
            showMessage(caveats ? QMessageBox::Warning : QMessageBox::Information, tr("Export edited model"),
                        summary);
            emit modelExported(onnxPath, summary, QString());
        });
    return true;
}

void MainWindow::exportEditedModel() {
    const auto s = snapshot();
    if (!s) {
        statusBar()->showMessage(tr("Open a model first"), 5000);
        return;
    }
    QSettings settings;
    const QString dir =
        settings.value(QStringLiteral("modelExportDir"), QFileInfo(s->modelPath).absolutePath()).toString();
    const QString name = QFileInfo(s->modelPath).completeBaseName() + QStringLiteral("-edited.onnx");
    QString path = QFileDialog::getSaveFileName(this, tr("Export edited model (ONNX + hb_compile YAML)"),
                                                QDir(dir).filePath(name), tr("ONNX models (*.onnx)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().compare(QLatin1String("onnx"), Qt::CaseInsensitive) != 0)
        path += QStringLiteral(".onnx");
    settings.setValue(QStringLiteral("modelExportDir"), QFileInfo(path).absolutePath());
    exportEditedModelTo(path);
}

} // namespace bpu::ui
