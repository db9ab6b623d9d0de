// SPDX-License-Identifier: MIT
#include "WhatIfActions.h"

#include "EditCommand.h"
#include "core/edit/EditList.h"
#include "core/edit/EditError.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"
#include "ui/main/SelectionHub.h"
#include "ui/main/SessionController.h"

#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QMessageBox>
#include <QToolBar>
#include <QUndoStack>

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
    setBaseline = make(tr("Set baseline"), tr("Measure deltas against the current state from now on"));
    setBatch->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    fuseAll->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));

    connect(fuseAll, &QAction::triggered, this, [this] { push(std::make_shared<FuseAllEdit>()); });
    connect(unfuseAll, &QAction::triggered, this, [this] { push(std::make_shared<UnfuseAllEdit>()); });
    connect(removeQdq, &QAction::triggered, this,
            [this] { push(std::make_shared<RemoveBoundaryQdqEdit>()); });
    connect(setBaseline, &QAction::triggered, controller_, &SessionController::setBaseline);
    connect(fuseGroup, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            push(std::make_shared<FuseEdit>(n->name, true));
    });
    connect(unfuseGroup, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            push(std::make_shared<FuseEdit>(n->name, false));
    });
    connect(placeOnBpu, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            push(std::make_shared<SetPlacementEdit>(n->name, Placement::BPU));
    });
    connect(placeOnCpu, &QAction::triggered, this, [this] {
        if (const Node* n = selectedNode())
            push(std::make_shared<SetPlacementEdit>(n->name, Placement::CPU));
    });
    connect(setGroups, &QAction::triggered, this, [this] {
        const Node* n = selectedNode();
        if (!n)
            return;
        bool ok = false;
        int g = QInputDialog::getInt(parent_, tr("Set groups"),
                                     tr("Groups for %1:").arg(QString::fromStdString(n->name)),
                                     int(n->attrIntOr("group", 1)), 1, 65536, 1, &ok);
        if (ok)
            push(std::make_shared<SetGroupEdit>(n->name, g));
    });
    connect(setChannels, &QAction::triggered, this, [this] {
        const Node* n = selectedNode();
        if (!n || !snap_)
            return;
        const auto& w = snap_->graph->tensor(n->inputs[1]).shape.dims;
        bool ok = false;
        int c = QInputDialog::getInt(parent_, tr("Set channels"),
                                     tr("Output channels of %1:").arg(QString::fromStdString(n->name)),
                                     int(w[0]), 1, 65536, 1, &ok);
        if (ok)
            push(std::make_shared<SetChannelsEdit>(n->name, c));
    });
    connect(setBatch, &QAction::triggered, this, [this] {
        bool ok = false;
        int b = QInputDialog::getInt(parent_, tr("Set batch"), tr("Images per inference:"),
                                     snap_ ? snap_->cost.batch : 1, 1, 4096, 1, &ok);
        if (ok)
            push(std::make_shared<SetBatchEdit>(b));
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
        push(std::make_shared<SetInputShapeEdit>(t.name, dims));
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
    for (QAction* a : {fuseAll, unfuseAll, setBatch, setInputShape, removeQdq, setBaseline})
        a->setEnabled(model);
    for (QAction* a : {fuseGroup, unfuseGroup, setGroups, setChannels})
        a->setEnabled(conv);
    placeOnBpu->setEnabled(n != nullptr);
    placeOnCpu->setEnabled(n != nullptr);
}

void WhatIfActions::push(EditPtr edit, bool final) {
    controller_->undoStack()->push(new EditCommand(controller_, std::move(edit), final));
}

void WhatIfActions::pushFix(const nlohmann::json& fix, const QString& title) {
    EditList edits;
    try {
        edits = editListFromJson(fix);
    } catch (const EditError& e) {
        QMessageBox::warning(parent_, tr("Apply fix"), QString::fromStdString(e.what()));
        return;
    }
    QUndoStack* stack = controller_->undoStack();
    stack->beginMacro(title);
    for (auto& e : edits)
        stack->push(new EditCommand(controller_, std::move(e)));
    stack->endMacro();
}

} // namespace bpu::ui
