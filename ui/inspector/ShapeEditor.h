// SPDX-License-Identifier: MIT
#pragma once

#include "ui/main/Snapshot.h"

#include <QWidget>
#include <memory>

class QSlider;
class QSpinBox;
class QLabel;
class QCustomPlot;
class QComboBox;

namespace bpu {
class Edit;
}

namespace bpu::ui {

class SessionController;

/// Drag-edit of one dim: a conv's output channels, or the model input's H or W. While dragging, each value
/// is applied as a (merging) what-if edit so the estimate follows live, and a curve shows padding waste and
/// latency over the dim's range with the alignment steps marked. Releasing commits one undo step.
class ShapeEditor : public QWidget {
    Q_OBJECT
public:
    explicit ShapeEditor(SessionController* controller, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    void setNode(NodeId id);
    QSlider* slider() const { return slider_; }
    QCustomPlot* plot() const { return plot_; }
    QSpinBox* spinBox() const { return spin_; }
    QComboBox* dimension() const { return dim_; }
    /// True while a sweep curve is being computed on the worker.
    bool isSweepPending() const { return sweepsPending_ > 0; }

signals:
    /// An edit to push on the undo stack; `final` is false while the slider is held.
    void editRequested(bpu::EditPtr edit, bool final);

private:
    enum class Target { None, Channels, InputH, InputW };
    void rebuild();
    void sweep();
    /// The readout (label, the current value's marker on the curve) for value `v` and the snapshot's
    /// estimate.
    void showCurrent(int v);
    void valueChosen(int v, bool final);
    EditPtr makeEdit(int v) const;
    int currentValue() const;
    int alignmentUnit() const;

    SessionController* controller_;
    SnapshotPtr snap_;
    NodeId node_;
    Target target_ = Target::None;
    QComboBox* dim_;
    QSlider* slider_;
    QSpinBox* spin_;
    QLabel* label_;
    QCustomPlot* plot_;
    QString sweptKey_;
    int lastSent_ = -1;
    int sweepsPending_ = 0;
    QString blocked_; ///< why no value of the range applies (the sweep found none), empty if some do
};

} // namespace bpu::ui
