// SPDX-License-Identifier: MIT
#include "DeploymentActions.h"

#include "core/deploy/DeployImport.h"
#include "core/deploy/DeployYaml.h"
#include "core/edit/Session.h"
#include "ui/session/SessionController.h"

#include <QAction>
#include <QActionGroup>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

namespace bpu::ui {

DeploymentActions::DeploymentActions(SessionController* controller, QWidget* dialogParent)
    : QObject(dialogParent)
    , controller_(controller)
    , parent_(dialogParent)
    , group_(new QActionGroup(this)) {
    fastPerf = new QAction(tr("hb_compile --fast-perf (nv12 input, outputs left quantized)"), this);
    fastPerf->setStatusTip(tr("What the board runs after hb_compile --fast-perf: image inputs as nv12, the "
                              "boundary Quantize/Dequantize removed (the default)"));
    keepIoQdq = new QAction(tr("Float model I/O (keep the boundary quantize/dequantize)"), this);
    keepIoQdq->setStatusTip(tr("Featuremap inputs and float outputs: the CPU quantizes every input and "
                               "dequantizes every output"));
    loadYaml = new QAction(tr("Load hb_compile config (YAML)..."), this);
    loadYaml->setStatusTip(tr("Read input_type_rt, norm_type, remove_node_type, node precisions and "
                              "placements from an hb_compile YAML config; its input_shape and input_batch "
                              "open the model again at those shapes"));
    for (QAction* a : {fastPerf, keepIoQdq, loadYaml}) {
        a->setCheckable(true);
        group_->addAction(a);
    }
    fastPerf->setChecked(true);
    connect(fastPerf, &QAction::triggered, this, [this] { apply(DeploySettings::fastPerf()); });
    connect(keepIoQdq, &QAction::triggered, this, [this] { apply(DeploySettings::keepIoQdq()); });
    connect(loadYaml, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(parent_, tr("Load hb_compile config"), yamlPath_,
                                                          tr("hb_compile configs (*.yaml *.yml)"));
        if (path.isEmpty())
            return setSnapshot(nullptr); // the check mark goes back to what is in effect
        loadConfig(path);
    });
}

void DeploymentActions::loadConfig(const QString& path) {
    DeploySettings d;
    try {
        d = loadDeployYaml(path.toStdString()); // names the file, the line and the key
        // A config for another export of the model must not apply in silence (issue 50).
        if (snap_ && snap_->graph)
            checkDeployNames(d, *snap_->graph);
    } catch (const std::exception& e) {
        const QString msg = QString::fromStdString(e.what());
        QMessageBox::warning(parent_, tr("Deployment"), msg);
        emit rejected(msg);
        return setSnapshot(nullptr);
    }
    yamlPath_ = path;
    apply(d);
}

void DeploymentActions::addTo(QMenu* menu) const {
    for (QAction* a : group_->actions())
        menu->addAction(a);
}

namespace {

/// Whether the model as open already has the input shapes `d` asks for (a config naming the shapes of a
/// static model, as an exported model's config does): then nothing is to be imported again.
bool hasShapesOf(const DeploySettings& d, const Graph& g) {
    for (TensorId in : g.inputs) {
        const Tensor& t = g.tensor(in);
        if (!t.shape.rankKnown || !t.shape.fullyKnown())
            return false;
        auto it = d.inputShapes.find(t.name);
        if (it == d.inputShapes.end() && g.inputs.size() == 1)
            it = d.inputShapes.find(std::string());
        std::vector<int64_t> want = it != d.inputShapes.end() ? it->second : t.shape.dims;
        if (d.inputBatch > 0 && want.size() >= 2)
            want[0] = d.inputBatch;
        if (want != t.shape.dims)
            return false;
    }
    return true;
}

} // namespace

void DeploymentActions::apply(const DeploySettings& d) {
    // The shapes a model is imported at are not a setting of the session: other ones open it again. A model
    // opened at its own shapes that already are the config's needs no new import.
    const bool shapesChange =
        snap_ && (d.inputShapes != snap_->deploy.inputShapes || d.inputBatch != snap_->deploy.inputBatch);
    const bool openAtOwnShapes = snap_ && snap_->deploy.inputShapes.empty() && snap_->deploy.inputBatch == 0;
    if (shapesChange && !(openAtOwnShapes && snap_->graph && hasShapesOf(d, *snap_->graph))) {
        emit reopenRequested(d);
        return;
    }
    controller_->reconfigure([d](Session& s) { s.setDeploy(d); });
}

void DeploymentActions::setSnapshot(SnapshotPtr s) {
    if (s)
        snap_ = std::move(s);
    if (!snap_)
        return;
    const DeploySettings& d = snap_->deploy;
    QAction* on = d.preset == DeployPreset::FastPerf    ? fastPerf
                  : d.preset == DeployPreset::KeepIoQdq ? keepIoQdq
                                                        : loadYaml;
    on->setChecked(true);
    loadYaml->setText(on == loadYaml && !yamlPath_.isEmpty()
                          ? tr("hb_compile config: %1 (load another...)").arg(QFileInfo(yamlPath_).fileName())
                          : tr("Load hb_compile config (YAML)..."));
}

} // namespace bpu::ui
