// SPDX-License-Identifier: MIT
#include "WhatIfActions.h"

#include "core/analysis/AnalysisResult.h"
#include "core/edit/ActivationEdits.h"
#include "core/edit/EditableDims.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"
#include "core/edit/TransformEdits.h"
#include "ui/session/SelectionHub.h"
#include "ui/session/SessionController.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QToolBar>

namespace bpu::ui {

WhatIfActions::WhatIfActions(SessionController* controller, SelectionHub* hub, QWidget* dialogParent)
    : QObject(dialogParent)
    , controller_(controller)
    , hub_(hub)
    , parent_(dialogParent) {
    auto make = [this](const QString& text, const QString& tip) {
        auto* a = new QAction(text, this);
        a->setStatusTip(tip);
        a->setToolTip(tip);
        return a;
    };
    fuseAll = make(tr("Fuse all"), tr("Fuse every fusable Conv[+BN][+Add][+ReLU] chain (G3)"));
    unfuseAll = make(tr("Unfuse all"), tr("Keep every fusion group apart (what unfused QAT costs, G3)"));
    fuseGroup = make(tr("Fuse group"), tr("Fuse the selected conv's chain, even where the graph blocks it"));
    unfuseGroup = make(tr("Unfuse group"), tr("Keep the selected conv's fusion group apart"));
    setGroups = make(tr("Set groups..."), tr("Set the selected conv's group count (G6.1)"));
    setBatch = make(tr("Set batch..."), tr("Run several images per inference (G6.5)"));
    setInputShape = make(tr("Set input shape..."), tr("Change the model input's shape"));
    setChannels = make(tr("Set channels..."), tr("Change the selected conv's output channels (G4.2)"));
    removeQdq = make(tr("Remove boundary Q/DQ"),
                     tr("Fold model-I/O quantize/dequantize into pre/post-processing (G1.1)"));
    placeOnBpu = make(tr("Place on BPU"), tr("Override the selected node's placement: BPU (G1.2)"));
    placeOnCpu = make(tr("Place on CPU"), tr("Override the selected node's placement: CPU"));
    modelInt16 = make(tr("Model in int16"), tr("Estimate every BPU node in int16 (set_all_nodes_int16)"));
    modelInt8 = make(tr("Model in int8"), tr("Estimate every BPU node in int8 (the default)"));
    nodeInt16 = make(tr("Node in int16"),
                     tr("Estimate the selected node in int16 (node_info InputType/OutputType int16); "
                        "each int8<->int16 edge costs a requantize"));
    toRelu =
        make(tr("Activation to ReLU"),
             tr("Replace the selected activation (SiLU, HardSwish, ...) by ReLU, which fuses into its conv "
                "(G3; a change of the model: retrain)"));
    toRelu6 =
        make(tr("Activation to ReLU6"),
             tr("Replace the selected activation by ReLU6 = Clip(0, 6), which fuses into its conv (G3; a "
                "change of the model: retrain)"));
    removePair = make(tr("Remove transform pair"),
                      tr("Take out the selected Transpose/Reshape and the next one that undoes it (G6.6; the "
                         "model computes the same)"));
    setBaseline = make(tr("Set baseline"), tr("Measure deltas and reports against the current state"));
    setBatch->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    fuseAll->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));

    connect(fuseAll, &QAction::triggered, this,
            [this] { applyOne(std::make_shared<FuseAllEdit>(), fuseAll); });
    connect(unfuseAll, &QAction::triggered, this,
            [this] { applyOne(std::make_shared<UnfuseAllEdit>(), unfuseAll); });
    connect(removeQdq, &QAction::triggered, this,
            [this] { applyOne(std::make_shared<RemoveBoundaryQdqEdit>(), removeQdq); });
    connect(setBaseline, &QAction::triggered, controller_, &SessionController::setBaseline);
    connect(modelInt16, &QAction::triggered, this, [this] {
        applyOne(std::make_shared<SetPrecisionEdit>(Precision::Int16, std::vector<std::string>{},
                                                    std::vector<std::string>{}),
                 modelInt16);
    });
    connect(modelInt8, &QAction::triggered, this, [this] {
        applyOne(std::make_shared<SetPrecisionEdit>(Precision::Int8, std::vector<std::string>{},
                                                    std::vector<std::string>{}),
                 modelInt8);
    });
    connect(nodeInt16, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            applyOne(std::make_shared<SetPrecisionEdit>(Precision::Int16, std::vector<std::string>{n->name},
                                                        std::vector<std::string>{}),
                     nodeInt16);
    });
    for (QAction* a : {toRelu, toRelu6})
        connect(a, &QAction::triggered, this, [this, a] {
            const std::string head = activationHead();
            if (!head.empty())
                applyOne(std::make_shared<ReplaceActivationEdit>(std::vector<std::string>{head},
                                                                 a == toRelu6
                                                                     ? ReplaceActivationEdit::Target::Relu6
                                                                     : ReplaceActivationEdit::Target::Relu),
                         a);
        });
    connect(removePair, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            applyOne(std::make_shared<RemoveTransformPairEdit>(std::vector<std::string>{n->name}),
                     removePair);
    });
    connect(fuseGroup, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            applyOne(std::make_shared<FuseEdit>(n->name, true), fuseGroup);
    });
    connect(unfuseGroup, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            applyOne(std::make_shared<FuseEdit>(n->name, false), unfuseGroup);
    });
    connect(placeOnBpu, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            applyOne(std::make_shared<SetPlacementEdit>(n->name, Placement::BPU), placeOnBpu);
    });
    connect(placeOnCpu, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            applyOne(std::make_shared<SetPlacementEdit>(n->name, Placement::CPU), placeOnCpu);
    });
    connect(setGroups, &QAction::triggered, this, [this] {
        const Node* n = selectedNode();
        if (!n)
            return;
        bool ok = false;
        const int g = QInputDialog::getInt(parent_, tr("Set groups"),
                                           tr("Groups for %1:").arg(QString::fromStdString(n->name)),
                                           int(n->attrIntOr("group", 1)), 1, 65536, 1, &ok);
        if (ok)
            applyOne(std::make_shared<SetGroupEdit>(n->name, g), setGroups);
    });
    connect(setChannels, &QAction::triggered, this, [this] {
        const Node* n = selectedNode();
        if (!n || !snap_ || n->inputs.size() < 2 || !n->inputs[1].valid())
            return;
        const auto& w = snap_->graph->tensor(n->inputs[1]).shape.dims;
        bool ok = false;
        const int c = QInputDialog::getInt(parent_, tr("Set channels"),
                                           tr("Output channels of %1:").arg(QString::fromStdString(n->name)),
                                           w.empty() ? 1 : int(w[0]), 1, 65536, 1, &ok);
        if (ok)
            applyOne(std::make_shared<SetChannelsEdit>(n->name, c), setChannels);
    });
    connect(setBatch, &QAction::triggered, this, [this] {
        bool ok = false;
        const int b = QInputDialog::getInt(parent_, tr("Set batch"), tr("Images per inference:"),
                                           snap_ ? snap_->cost.batch : 1, 1, 4096, 1, &ok);
        if (ok)
            applyOne(std::make_shared<SetBatchEdit>(b), setBatch);
    });
    connect(setInputShape, &QAction::triggered, this, [this] {
        if (!snap_ || snap_->graph->inputs.empty())
            return;
        const Tensor& t = snap_->graph->tensor(snap_->graph->inputs.front());
        bool ok = false;
        const QString text =
            QInputDialog::getText(parent_, tr("Set input shape"),
                                  tr("Shape of %1 (e.g. 1x3x512x512):").arg(QString::fromStdString(t.name)),
                                  QLineEdit::Normal, QString::fromStdString(t.shape.toString()), &ok);
        if (!ok)
            return;
        std::vector<int64_t> dims;
        for (const QString& part : text.split(QLatin1Char('x'), Qt::SkipEmptyParts)) {
            bool isNum = false;
            const qlonglong v = part.trimmed().toLongLong(&isNum);
            if (!isNum) {
                QMessageBox::warning(parent_, tr("Set input shape"),
                                     tr("'%1' is not a shape like 1x3x512x512").arg(text));
                return;
            }
            dims.push_back(v);
        }
        applyOne(std::make_shared<SetInputShapeEdit>(t.name, dims), setInputShape);
    });
    connect(hub_, &SelectionHub::changed, this, [this] { updateEnabled(); });
    updateEnabled();
}

void WhatIfActions::addTo(QMenu* menu, QToolBar* toolbar) const {
    for (QAction* a : {fuseAll, unfuseAll, fuseGroup, unfuseGroup})
        menu->addAction(a);
    menu->addSeparator();
    for (QAction* a : {setGroups, setChannels, setBatch, setInputShape})
        menu->addAction(a);
    menu->addSeparator();
    for (QAction* a : {removeQdq, placeOnBpu, placeOnCpu})
        menu->addAction(a);
    menu->addSeparator();
    for (QAction* a : {modelInt16, modelInt8, nodeInt16})
        menu->addAction(a);
    menu->addSeparator();
    for (QAction* a : {toRelu, toRelu6, removePair})
        menu->addAction(a);
    menu->addSeparator();
    menu->addAction(setBaseline);
    if (toolbar)
        for (QAction* a : {fuseAll, unfuseAll, setBatch, removeQdq, setBaseline})
            toolbar->addAction(a);
}

void WhatIfActions::setSnapshot(SnapshotPtr s) {
    snap_ = std::move(s);
    updateEnabled();
}

const Node* WhatIfActions::selectedNode() const {
    if (!snap_ || !hub_->current().valid() || hub_->current().value >= snap_->graph->nodes.size())
        return nullptr;
    return &snap_->graph->node(hub_->current());
}

void WhatIfActions::updateEnabled() {
    const bool model = snap_ != nullptr;
    const Node* n = selectedNode();
    const bool conv = n && n->opType == "Conv" && n->inputs.size() > 1 && n->inputs[1].valid();
    for (QAction* a :
         {fuseAll, unfuseAll, setBatch, setInputShape, removeQdq, setBaseline, modelInt16, modelInt8})
        a->setEnabled(model);
    nodeInt16->setEnabled(n != nullptr);
    for (QAction* a : {fuseGroup, unfuseGroup, setGroups, setChannels})
        a->setEnabled(conv);
    placeOnBpu->setEnabled(n != nullptr);
    placeOnCpu->setEnabled(n != nullptr);
    const bool activation = !activationHead().empty();
    toRelu->setEnabled(activation);
    toRelu6->setEnabled(activation);
    removePair->setEnabled(n && transformPairCancels(*snap_->graph, n->id));
}

std::string WhatIfActions::activationHead() const {
    // The node replace_activation names for the selection (core: a selected gate picks its Mul).
    const Node* n = selectedNode();
    const NodeId head = n ? bpu::activationHead(*snap_->graph, n->id) : NodeId{};
    return head.valid() ? snap_->graph->node(head).name : std::string();
}

void WhatIfActions::applyOne(EditPtr edit, QAction* from) {
    Q_UNUSED(from);
    const QString label = QString::fromStdString(edit->describe(3));
    apply({std::move(edit)}, label);
}

void WhatIfActions::apply(EditList edits, const QString& label) {
    if (snap_)
        controller_->apply(snap_->modelId, std::move(edits), label);
}

} // namespace bpu::ui
