// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/Snapshot.h"

#include <QObject>

class QAction;
class QActionGroup;
class QMenu;
class QWidget;

namespace bpu::ui {

class SessionController;

/// Model > Deployment: how the board runs the model, as hb_compile builds it (docs/deployment.md) - the
/// --fast-perf preset, float model I/O (keep the boundary quantize/dequantize), or an hb_compile YAML config.
/// Not an edit of the model: a session setting, applied to the current state and the baseline alike
/// (SessionController::reconfigure), so the what-if deltas compare like with like.
class DeploymentActions : public QObject {
    Q_OBJECT
public:
    DeploymentActions(SessionController* controller, QWidget* dialogParent);
    void addTo(QMenu* menu) const;
    /// Checks the entry that matches the snapshot's deployment and names it in the status tips.
    void setSnapshot(SnapshotPtr s);
    /// Reads the hb_compile config at `path` and applies it (the Load action after its file dialog): a file
    /// that does not read, or names what the model lacks, is refused in a message box and `rejected`.
    void loadConfig(const QString& path);

    QAction* fastPerf = nullptr;
    QAction* keepIoQdq = nullptr;
    QAction* loadYaml = nullptr;

signals:
    /// A YAML config could not be used: the file and the reason.
    void rejected(const QString& message);
    /// `d` sets other input shapes or another batch than the model was opened with (input_shape,
    /// input_batch; or a preset after a config that set them): the model is to be opened again under it.
    void reopenRequested(const bpu::DeploySettings& d);

private:
    void apply(const DeploySettings& d);

    SessionController* controller_;
    QWidget* parent_;
    QActionGroup* group_;
    QString yamlPath_;
    SnapshotPtr snap_; ///< the state shown: a cancelled choice puts its check mark back
};

} // namespace bpu::ui
