// SPDX-License-Identifier: MIT
#include "ShapeEditor.h"

#include "core/edit/EditError.h"
#include "core/edit/Session.h"
#include "core/edit/ShapeEdits.h"
#include "ui/main/SessionController.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace bpu::ui {

namespace {
struct SweepPoint {
    int value;
    double latencyMs, wasteRatio;
};
} // namespace

ShapeEditor::ShapeEditor(SessionController* controller, QWidget* parent)
    : QWidget(parent)
    , controller_(controller)
    , dim_(new QComboBox(this))
    , slider_(new QSlider(Qt::Horizontal, this))
    , spin_(new QSpinBox(this))
    , label_(new QLabel(this))
    , plot_(new QCustomPlot(this)) {
    label_->setWordWrap(true);
    dim_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* row = new QHBoxLayout;
    row->addWidget(dim_);
    row->addWidget(slider_, 1);
    row->addWidget(spin_);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(label_);
    lay->addLayout(row);
    lay->addWidget(plot_, 1);
    plot_->setMinimumHeight(150);
    plot_->addGraph();
    plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    plot_->graph(0)->setName(tr("latency (ms/image)"));
    plot_->graph(0)->setPen(QPen(QColor(0x00, 0x72, 0xb2), 2));
    plot_->graph(1)->setName(tr("padding waste"));
    plot_->graph(1)->setPen(QPen(QColor(0xd5, 0x5e, 0x00), 2));
    plot_->yAxis->setLabel(tr("latency ms"));
    plot_->yAxis2->setLabel(tr("waste"));
    plot_->yAxis2->setVisible(true);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 7));
    // The legend in a row above the plot: inside, it would hide the curves' ends.
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, plot_->legend);
    plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot_->legend->setBorderPen(Qt::NoPen);
    plot_->legend->setMargins(QMargins(2, 0, 2, 0));
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    slider_->setTracking(true);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        QSignalBlocker b(spin_);
        spin_->setValue(v);
        if (slider_->isSliderDown())
            valueChosen(v, false);
    });
    connect(slider_, &QSlider::sliderReleased, this, [this] { valueChosen(slider_->value(), true); });
    connect(spin_, &QSpinBox::editingFinished, this, [this] {
        QSignalBlocker b(slider_);
        slider_->setValue(spin_->value());
        valueChosen(spin_->value(), true);
    });
    connect(dim_, &QComboBox::currentIndexChanged, this, [this] {
        target_ = static_cast<Target>(dim_->currentData().toInt());
        sweptKey_.clear();
        rebuild();
    });
    setEnabled(false);
}

void ShapeEditor::setSnapshot(SnapshotPtr s) {
    snap_ = std::move(s);
    if (!slider_->isSliderDown())
        rebuild();
    else if (target_ != Target::None && snap_)
        showCurrent(currentValue()); // mid-drag: the range stays put, the readout follows the estimate
}

void ShapeEditor::setNode(NodeId id) {
    node_ = id;
    QSignalBlocker b(dim_);
    dim_->clear();
    if (snap_ && id.valid() && id.value < snap_->graph->nodes.size()) {
        const Node& n = snap_->graph->node(id);
        if (n.opType == "Conv" &&
            !(n.attrIntOr("group", 1) > 1 && n.inputs.size() > 1 && n.inputs[1].valid() &&
              snap_->graph->tensor(n.inputs[1]).shape.rank() > 1 &&
              snap_->graph->tensor(n.inputs[1]).shape.dims[1] == 1))
            dim_->addItem(tr("Output channels"), int(Target::Channels));
    }
    if (snap_)
        for (TensorId in : snap_->graph->inputs)
            if (snap_->graph->tensor(in).shape.rank() == 4) {
                dim_->addItem(tr("Input H"), int(Target::InputH));
                dim_->addItem(tr("Input W"), int(Target::InputW));
                break;
            }
    target_ = dim_->count() ? static_cast<Target>(dim_->itemData(0).toInt()) : Target::None;
    sweptKey_.clear();
    rebuild();
}

int ShapeEditor::alignmentUnit() const {
    if (!snap_)
        return 1;
    const auto& al = snap_->target->alignment;
    switch (target_) {
    case Target::Channels:
        return int(al.convC.value);
    case Target::InputH:
    case Target::InputW: {
        // An image input (few channels) is laid out by the runtime with its own H/W units; any other
        // input pads like a feature map.
        bool image = false;
        for (TensorId in : snap_->graph->inputs) {
            const auto& d = snap_->graph->tensor(in).shape.dims;
            if (d.size() == 4) {
                image = d[1] <= int64_t(al.inputCMax.value);
                break;
            }
        }
        if (target_ == Target::InputH)
            return int(image ? al.inputH.value : al.convH.value);
        return int(image ? al.inputW.value : al.convW.value);
    }
    default:
        return 1;
    }
}

int ShapeEditor::currentValue() const {
    if (!snap_)
        return 0;
    const Graph& g = *snap_->graph;
    if (target_ == Target::Channels && node_.valid()) {
        const Node& n = g.node(node_);
        return n.inputs.size() > 1 && n.inputs[1].valid() ? int(g.tensor(n.inputs[1]).shape.dims[0]) : 0;
    }
    for (TensorId in : g.inputs)
        if (g.tensor(in).shape.rank() == 4)
            return int(g.tensor(in).shape.dims[target_ == Target::InputH ? 2 : 3]);
    return 0;
}

EditPtr ShapeEditor::makeEdit(int v) const {
    if (!snap_)
        return nullptr;
    const Graph& g = *snap_->graph;
    if (target_ == Target::Channels && node_.valid())
        return std::make_shared<SetChannelsEdit>(g.node(node_).name, v);
    for (TensorId in : g.inputs)
        if (g.tensor(in).shape.rank() == 4) {
            auto dims = g.tensor(in).shape.dims;
            dims[target_ == Target::InputH ? 2 : 3] = v;
            return std::make_shared<SetInputShapeEdit>(g.tensor(in).name, dims);
        }
    return nullptr;
}

void ShapeEditor::rebuild() {
    setEnabled(target_ != Target::None && snap_);
    plot_->setVisible(target_ != Target::None && snap_);

    if (target_ == Target::None || !snap_) {
        label_->setText(tr("Select a Conv to drag its output channels, or drag the model input's H/W."));
        return;
    }
    const int v = currentValue();
    const int unit = alignmentUnit();
    const int group = target_ == Target::Channels ? int(snap_->graph->node(node_).attrIntOr("group", 1)) : 1;
    const int lo = std::max(group, std::max(1, v / 4 / group * group));
    const int hi = std::max(v * 2, v + 4 * unit);
    {
        QSignalBlocker b1(slider_), b2(spin_);
        slider_->setRange(lo, hi);
        slider_->setSingleStep(group);
        slider_->setPageStep(unit);
        spin_->setRange(lo, hi);
        spin_->setSingleStep(group);
        slider_->setValue(v);
        spin_->setValue(v);
    }
    const QString key = QStringLiteral("%1/%2/%3/%4").arg(int(target_)).arg(node_.value).arg(lo).arg(hi);
    if (key != sweptKey_) {
        sweptKey_ = key;
        blocked_.clear();
        sweep();
    }
    showCurrent(v);
}

void ShapeEditor::showCurrent(int v) {
    slider_->setEnabled(blocked_.isEmpty());
    spin_->setEnabled(blocked_.isEmpty());
    if (!blocked_.isEmpty()) {
        label_->setText(tr("%1 cannot change: %2").arg(dim_->currentText(), blocked_));
        return;
    }
    const int unit = alignmentUnit();
    const int padded = (v + unit - 1) / unit * unit;
    label_->setText(tr("%1 = %2 \u2192 padded to %4 (unit %3) \u00b7 %5 ms/image")
                        .arg(dim_->currentText())
                        .arg(v)
                        .arg(unit)
                        .arg(padded)
                        .arg(snap_->cost.perImageMs, 0, 'f', 3));
    // Marker for the current value.
    plot_->clearItems();
    auto* cur = new QCPItemStraightLine(plot_);
    cur->point1->setCoords(v, 0);
    cur->point2->setCoords(v, 1);
    cur->setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DashLine));
    auto* tag = new QCPItemText(plot_);
    tag->position->setType(QCPItemPosition::ptPlotCoords);
    tag->position->setAxes(plot_->xAxis, plot_->yAxis2);
    tag->position->setCoords(v, 0.97);
    tag->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    tag->setPadding(QMargins(4, 0, 4, 0));
    tag->setColor(palette().color(QPalette::WindowText));
    tag->setText(QStringLiteral("%1\n%2 ms").arg(v).arg(snap_->cost.perImageMs, 0, 'f', 3));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ShapeEditor::sweep() {
    // The curve: re-estimate a copy of the session at ~40 values, including every alignment step.
    const int lo = slider_->minimum(), hi = slider_->maximum(), unit = alignmentUnit();
    const int group = target_ == Target::Channels ? int(snap_->graph->node(node_).attrIntOr("group", 1)) : 1;
    std::vector<int> values;
    const int step = std::max(group, (hi - lo) / 40 / group * group);
    for (int x = lo; x <= hi; x += step)
        values.push_back(x);
    for (int x = (lo + unit - 1) / unit * unit; x <= hi; x += unit) {
        values.push_back(x);
        if (x - group >= lo)
            values.push_back(x - group);
        if (x + group <= hi)
            values.push_back(x + group);
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::vector<std::pair<int, EditPtr>> edits;
    for (int x : values)
        if (auto e = makeEdit(x))
            edits.emplace_back(x, e);
    const NodeId node = node_;
    const bool channels = target_ == Target::Channels;
    const int current = currentValue();
    ++sweepsPending_;
    controller_->preview(
        [edits, node, channels, current](const Session& live) {
            QVector<double> xs, lat, waste;
            QString firstError;
            bool movable = false; // some value other than the current one applies
            for (const auto& [x, e] : edits) {
                Session trial = live;
                try {
                    e->apply(trial);
                } catch (const EditError& err) {
                    if (firstError.isEmpty())
                        firstError = QString::fromStdString(err.what());
                    continue;
                }
                movable |= x != current;
                xs.push_back(x);
                lat.push_back(trial.cost().perImageMs);
                double w = trial.analysis().summary.paddingWasteRatio;
                if (channels) {
                    const Node& n = trial.graph().node(node);
                    if (!n.outputs.empty() && n.outputs[0].valid())
                        w = trial.analysis().tensors[n.outputs[0].value].padded.wasteRatio();
                }
                waste.push_back(w);
            }
            QVariantMap out;
            out[QStringLiteral("curves")] = QVariant::fromValue(QVector<QVector<double>>{xs, lat, waste});
            out[QStringLiteral("error")] = firstError;
            out[QStringLiteral("movable")] = movable;
            return QVariant(out);
        },
        [this, unit, lo, hi, key = sweptKey_](QVariant v) {
            --sweepsPending_;
            if (key != sweptKey_)
                return; // another node or dim was chosen meanwhile; its own sweep follows
            const QVariantMap out = v.toMap();
            const auto data = out.value(QStringLiteral("curves")).value<QVector<QVector<double>>>();
            if (data.size() != 3)
                return;
            if (!out.value(QStringLiteral("movable")).toBool()) {
                // No value of the range applies (e.g. a Split downstream fixes the channels): say why rather
                // than offer a drag whose every step would be rejected.
                blocked_ = out.value(QStringLiteral("error")).toString();
                showCurrent(currentValue());
                plot_->graph(0)->data()->clear();
                plot_->graph(1)->data()->clear();
                plot_->replot(QCustomPlot::rpQueuedReplot);
                return;
            }
            plot_->graph(0)->setData(data[0], data[1], true);
            plot_->graph(1)->setData(data[0], data[2], true);
            plot_->xAxis->setRange(lo, hi);
            plot_->graph(0)->rescaleValueAxis();
            plot_->yAxis2->setRange(0, 1);
            // Ticks on alignment steps: every unit while that stays readable, else every k-th unit.
            const int units = std::max(1, (hi - lo) / std::max(1, unit));
            const int every = unit * std::max(1, (units + 9) / 10);
            QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
            for (int x = (lo + every - 1) / every * every; x <= hi; x += every)
                ticker->addTick(x, QString::number(x));
            plot_->xAxis->setTicker(ticker);
            plot_->xAxis->setLabel(
                every == unit ? tr("%1 (ticks: alignment unit %2)").arg(dim_->currentText()).arg(unit)
                              : tr("%1 (ticks: %2 x the alignment unit %3)")
                                    .arg(dim_->currentText())
                                    .arg(every / unit)
                                    .arg(unit));
            plot_->replot(QCustomPlot::rpQueuedReplot);
        });
}

void ShapeEditor::valueChosen(int v, bool final) {
    if (v == currentValue() && final && lastSent_ < 0)
        return;
    if (!final && v == lastSent_)
        return;
    lastSent_ = final ? -1 : v;
    if (auto e = makeEdit(v))
        emit editRequested(e, final);
}

} // namespace bpu::ui
