// SPDX-License-Identifier: MIT
#include "ShapeEditor.h"

#include "core/model/Completeness.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/session/SessionController.h"
#include "ui/style/Palette.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

namespace bpu::ui {

namespace {
/// Which control a dim is (its label and the conv or input it belongs to), across states of the model: the
/// one kept chosen after an edit, the curve a drag snaps to, part of a sweep's key.
std::string controlKey(const EditableDim& d) {
    return d.label() + d.target;
}
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
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
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
    plot_->graph(0)->setPen(QPen(style::latencyCurve(), 2));
    plot_->graph(1)->setName(tr("padding waste"));
    plot_->graph(1)->setPen(QPen(style::wasteCurve(), 2));
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
    connect(slider_, &QSlider::sliderPressed, this, [this] {
        const EditableDim* d = currentDim();
        rejected_.clear();
        if (d && snap_)
            dragging_ = Drag{*d, snap_->modelId, d->current};
    });
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (slider_->isSliderDown() && dragging_) {
            // A drag moves through values the model takes: one between them would only be refused
            // (yolov8n's input H between its stride's multiples).
            if (const int64_t s = snapped(dragging_->dim, v); s != v) {
                QSignalBlocker b(slider_);
                slider_->setValue(int(s));
                v = int(s);
            }
        }
        QSignalBlocker b(spin_);
        spin_->setValue(v);
        if (slider_->isSliderDown())
            valueChosen(v, false);
    });
    connect(slider_, &QSlider::sliderReleased, this, [this] { valueChosen(slider_->value(), true); });
    connect(spin_, &QSpinBox::editingFinished, this, [this] {
        const EditableDim* d = currentDim();
        if (!d || !snap_ || spin_->value() == d->current)
            return;
        QSignalBlocker b(slider_);
        slider_->setValue(spin_->value());
        dragging_ = Drag{*d, snap_->modelId, d->current};
        valueChosen(spin_->value(), true);
    });
    connect(dim_, &QComboBox::currentIndexChanged, this, [this](int i) {
        index_ = i;
        rebuild();
    });
    connect(controller_, &SessionController::editRejected, this, &ShapeEditor::onRejected);
    setEnabled(false);
}

const EditableDim* ShapeEditor::currentDim() const {
    return index_ >= 0 && index_ < int(dims_.size()) ? &dims_[size_t(index_)] : nullptr;
}

void ShapeEditor::reset() {
    // An unfinished drag belongs to the model it started on: it ends here, applying nothing more.
    dragging_.reset();
    pendingNode_.reset();
    if (slider_->isSliderDown())
        slider_->setSliderDown(false);
    node_ = NodeId{};
    dims_.clear();
    index_ = -1;
    sweptKey_.clear();
    rejected_.clear();
    curve_ = {};
    curveDim_.clear();
    {
        QSignalBlocker b(dim_);
        dim_->clear();
    }
    plot_->graph(0)->data()->clear();
    plot_->graph(1)->data()->clear();
    rebuild();
}

void ShapeEditor::setSnapshot(SnapshotPtr s) {
    const bool newModel = !snap_ || !s || snap_->modelId != s->modelId;
    // A new state (Snapshot::generation) means a value applied (a drag step, an undo, any edit): a reason
    // given for an earlier rejected value no longer describes what the slider shows. A rejected step
    // republishes the state it left unchanged, with the same generation.
    if (newModel || snap_->generation != s->generation)
        rejected_.clear();
    snap_ = std::move(s);
    if (newModel && dragging_)
        reset();
    if (dragging_) {
        // Mid-drag the range and the dim stay put; the readout follows the estimate.
        showCurrent(slider_->value());
        return;
    }
    setNode(node_);
}

void ShapeEditor::setNode(NodeId id) {
    if (dragging_) {
        pendingNode_ = id; // never switch the control under a held mouse button
        return;
    }
    // Another state of the same node keeps its control; another node starts at its first.
    const QString was =
        currentDim() && id == node_ ? QString::fromStdString(controlKey(*currentDim())) : QString();
    node_ = id;
    dims_.clear();
    if (snap_)
        dims_ = editableDims(*snap_->graph, *snap_->analysis, *snap_->target, id);
    QSignalBlocker b(dim_);
    dim_->clear();
    const bool manyInputs = snap_ && snap_->graph->inputs.size() > 1;
    index_ = dims_.empty() ? -1 : 0;
    for (size_t i = 0; i < dims_.size(); ++i) {
        const EditableDim& d = dims_[i];
        QString text = QString::fromStdString(d.label());
        if (manyInputs && d.kind != DimKind::OutputChannels)
            text += QStringLiteral(" (%1)").arg(QString::fromStdString(d.target));
        dim_->addItem(text);
        // The same control as before (another state of it) stays chosen.
        if (QString::fromStdString(controlKey(d)) == was)
            index_ = int(i);
    }
    dim_->setCurrentIndex(index_);
    rebuild();
}

void ShapeEditor::setRange(const EditableDim& d) {
    QSignalBlocker b1(slider_), b2(spin_);
    spin_->setSpecialValueText({}); // else the lowest value would read as the placeholder
    slider_->setRange(int(d.lo), int(d.hi));
    slider_->setSingleStep(int(d.step));
    slider_->setPageStep(int(std::max(d.unit, d.step)));
    spin_->setRange(int(d.lo), int(d.hi));
    spin_->setSingleStep(int(d.step));
    slider_->setValue(int(d.current));
    spin_->setValue(int(d.current));
}

bool ShapeEditor::snaps(const EditableDim& d) const {
    return curveDim_ == controlKey(d) && dragSnaps(curve_);
}

int64_t ShapeEditor::snapped(const EditableDim& d, int64_t v) const {
    return snaps(d) ? std::clamp(dragValue(curve_, v), d.lo, d.hi) : v;
}

void ShapeEditor::rebuild() {
    const EditableDim* d = currentDim();
    setEnabled(d && snap_);
    plot_->setVisible(d && snap_);
    if (!d || !snap_) {
        // Nothing to drag here: the disabled controls show no number (they held the last model's value).
        QSignalBlocker b1(slider_), b2(spin_);
        slider_->setRange(0, 0);
        spin_->setRange(0, 0);
        spin_->setSpecialValueText(QStringLiteral("\u2013"));
        label_->setText(tr("Select a Conv to drag its output channels, or drag the model input's H/W."));
        clearCurve(); // issue 63: no stale chart behind a disabled editor
        return;
    }
    // Another dim than the curve's: its chart and its reason not to move are not this one's (issue 63: the
    // input H/W editor showed a shared-weight conv's reason).
    if (curveDim_ != controlKey(*d))
        clearCurve();
    setRange(*d);
    requestSweep();
    showCurrent(d->current);
}

void ShapeEditor::clearCurve() {
    curve_ = {};
    curveDim_.clear();
    sweptKey_.clear(); // the dim's curve is asked for again when it is shown again
    plot_->graph(0)->data()->clear();
    plot_->graph(1)->data()->clear();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ShapeEditor::requestSweep() {
    const EditableDim* d = currentDim();
    if (!d || !snap_)
        return;
    const QString key = QStringLiteral("%1/%2/%3/%4/%5-%6")
                            .arg(snap_->modelId)
                            .arg(quintptr(snap_.get()))
                            .arg(QString::fromStdString(controlKey(*d)))
                            .arg(d->current)
                            .arg(d->lo)
                            .arg(d->hi);
    if (key == sweptKey_)
        return;
    sweptKey_ = key;
    const EditableDim dim = *d;
    // Each point re-estimates the whole model: on a big one the profile's sweep_node_budget thins the curve
    // (core/edit/Sweep.h), so it costs about as much as a few re-estimates whatever the model's size.
    const std::vector<int64_t> values = limitSweepValues(sweepValues(dim, dim.lo, dim.hi), dim.current,
                                                         sweepPointLimit(*snap_->target, *snap_->graph));
    controller_->sweep(snap_->modelId, dim, values,
                       [this, dim, key](JobOutcome outcome, const SweepResult& r) {
                           if (outcome != JobOutcome::Done || key != sweptKey_)
                               return; // another dim or state was asked for meanwhile
                           curve_ = r;
                           curveDim_ = controlKey(dim);
                           showCurve(r, dim);
                       });
}

void ShapeEditor::showCurve(const SweepResult& r, const EditableDim& dim) {
    plot_->graph(0)->data()->clear();
    plot_->graph(1)->data()->clear();
    if (!r.movable) {
        // No other value applies (e.g. a Split downstream fixes the channels): say why rather than offer a
        // drag whose every step would be rejected.
        showCurrent(dim.current);
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    QVector<double> xs, lat, waste;
    for (const SweepPoint& p : r.points)
        if (p.applies) {
            xs << double(p.value);
            lat << p.perImageMs;
            // A conv's channels pad its own output; an input's H/W reach every feature map.
            waste << (dim.kind == DimKind::OutputChannels ? p.tensorWaste : p.modelWaste);
        }
    plot_->graph(0)->setData(xs, lat, true);
    plot_->graph(1)->setData(xs, waste, true);
    plot_->xAxis->setRange(double(dim.lo), double(dim.hi));
    plot_->graph(0)->rescaleValueAxis();
    plot_->yAxis2->setRange(0, 1);
    // Ticks on alignment steps: every unit while that stays readable, else every k-th unit.
    const int64_t unit = std::max<int64_t>(1, dim.unit);
    const int64_t units = std::max<int64_t>(1, (dim.hi - dim.lo) / unit);
    const int64_t every = unit * std::max<int64_t>(1, (units + 9) / 10);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int64_t x = (dim.lo + every - 1) / every * every; x <= dim.hi; x += every)
        ticker->addTick(double(x), QString::number(x));
    plot_->xAxis->setTicker(ticker);
    const QString name = QString::fromStdString(dim.label());
    plot_->xAxis->setLabel(
        unit == 1       ? name
        : every == unit ? tr("%1 (ticks: alignment unit %2)").arg(name).arg(unit)
                        : tr("%1 (ticks: %2 x the alignment unit %3)").arg(name).arg(every / unit).arg(unit));
    showCurrent(slider_->value());
}

void ShapeEditor::showCurrent(int64_t v) {
    const EditableDim* d = dragging_ ? &dragging_->dim : currentDim();
    if (!d || !snap_)
        return;
    const bool blocked =
        curveDim_ == controlKey(*d) && !curve_.points.empty() && !curve_.movable && !dragging_;
    slider_->setEnabled(!blocked);
    spin_->setEnabled(!blocked);
    const QString name = QString::fromStdString(d->label());
    // A dim that cannot change has no curve to drag along: no chart, rather than the axes and the value
    // marker of the last one (walked after opening PP-OCR's FPN from yolo12n: its 192..960 ticks stayed).
    plot_->setVisible(!blocked);
    if (blocked) {
        label_->setText(tr("%1 cannot change: %2").arg(name, QString::fromStdString(curve_.error)));
        plot_->clearItems();
        return;
    }
    QString text = d->unit > 1 ? tr("%1 = %2 \u2192 padded to %3 (unit %4, %5) \u00b7 %6 ms/image")
                                     .arg(name)
                                     .arg(v)
                                     .arg(d->padded(v))
                                     .arg(d->unit)
                                     .arg(QString::fromStdString(d->unitParam))
                                     .arg(snap_->cost.perImageMs, 0, 'f', 3)
                               : tr("%1 = %2 (not padded) \u00b7 %3 ms/image")
                                     .arg(name)
                                     .arg(v)
                                     .arg(snap_->cost.perImageMs, 0, 'f', 3);
    if (snaps(*d))
        text += tr(" \u00b7 the drag lands on the values the curve shows this model takes");
    // Issue 63: the export fixed sizes in constants (yolo12n's attention Reshape): the curve and the drag are
    // the model as re-exported at each size, an idealized estimate, said so beside the number.
    if (d->reexport)
        text += QStringLiteral("<br>%1").arg(tr("Estimated as re-exported at each size (assume_reexported; "
                                                "idealized, not exported): the export "
                                                "fixed %n size(s) in constants, e.g. %1",
                                                nullptr, int(d->bakedCount))
                                                 .arg(QString::fromStdString(d->bakedExample))
                                                 .toHtmlEscaped());
    // Issue 61: on a partial result every point of the curve rests on guessed shapes: said beside it.
    if (const Completeness& c = snap_->completeness; !c.complete())
        text +=
            QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                .arg(style::worse().name(),
                     tr("PARTIAL: %n node(s) without an inferred shape; the curve's points rest on guesses",
                        nullptr, c.nodesWithoutShape)
                         .toHtmlEscaped());
    if (!rejected_.isEmpty())
        text += QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                    .arg(style::worse().name(), rejected_.toHtmlEscaped());
    label_->setText(text);
    // Marker for the current value.
    plot_->clearItems();
    auto* cur = new QCPItemStraightLine(plot_);
    cur->point1->setCoords(double(v), 0);
    cur->point2->setCoords(double(v), 1);
    cur->setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DashLine));
    auto* tag = new QCPItemText(plot_);
    tag->position->setType(QCPItemPosition::ptPlotCoords);
    tag->position->setAxes(plot_->xAxis, plot_->yAxis2);
    tag->position->setCoords(double(v), 0.97);
    tag->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    tag->setPadding(QMargins(4, 0, 4, 0));
    tag->setColor(palette().color(QPalette::WindowText));
    tag->setText(QStringLiteral("%1\n%2 ms").arg(v).arg(snap_->cost.perImageMs, 0, 'f', 3));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ShapeEditor::valueChosen(int64_t v, bool final) {
    if (!dragging_ || !snap_)
        return; // a release with no press on this model (the drag was dropped)
    Drag& drag = *dragging_;
    if (drag.modelId != snap_->modelId) {
        dragging_.reset(); // pressed on another model: nothing of it applies here
        return;
    }
    if (v != drag.lastSent || final) {
        const bool changed = v != drag.lastSent;
        drag.lastSent = v;
        if (changed || final)
            controller_->dragStep(drag.modelId, drag.dim.at(v), final);
    }
    if (final) {
        dragging_.reset();
        if (pendingNode_) {
            const NodeId id = *pendingNode_;
            pendingNode_.reset();
            setNode(id);
        }
    }
}

void ShapeEditor::onRejected(const EditRejection& r) {
    if (!r.drag)
        return;
    rejected_ = tr("%1 rejected: %2").arg(r.edit, r.reason);
    showCurrent(slider_->value());
}

} // namespace bpu::ui
