// SPDX-License-Identifier: MIT
#pragma once

#include "core/edit/EditableDims.h"
#include "core/edit/Sweep.h"
#include "ui/session/Snapshot.h"

#include <QWidget>
#include <optional>
#include <vector>

class QSlider;
class QSpinBox;
class QLabel;
class QCustomPlot;
class QComboBox;

namespace bpu::ui {

class SessionController;
struct EditRejection;

/// Drag-edit of one dim: a conv's output channels, or a model input's H or W, as core/edit's editableDims
/// offers them (with the alignment unit from the target profile). While dragging, each value is a drag step
/// of one undo step, so the estimate follows live; the curve of latency and padding waste over the range is
/// the core's sweep. A drag is tied to the model and the dim it started on: a model opened meanwhile, a
/// selection change or a rejected value never moves it elsewhere.
class ShapeEditor : public QWidget {
    Q_OBJECT
public:
    explicit ShapeEditor(SessionController* controller, QWidget* parent = nullptr);
    void setSnapshot(SnapshotPtr s);
    void setNode(NodeId id);
    /// Back to nothing selected (a new model): an unfinished drag is dropped, not applied.
    void reset();
    QSlider* slider() const { return slider_; }
    QLabel* label() const { return label_; }
    QCustomPlot* plot() const { return plot_; }
    QSpinBox* spinBox() const { return spin_; }
    QComboBox* dimension() const { return dim_; }
    QLabel* readout() const { return label_; }
    /// The dim being edited (none without a model).
    const EditableDim* currentDim() const;
    /// The last curve shown.
    const SweepResult& curve() const { return curve_; }
    bool isDragging() const { return dragging_.has_value(); }

private:
    void rebuild();
    void requestSweep();
    void showCurve(const SweepResult& r, const EditableDim& dim);
    /// Forgets the curve and empties the chart (another dim, or nothing to drag).
    void clearCurve();
    void showCurrent(int64_t v);
    void valueChosen(int64_t v, bool final);
    void onRejected(const EditRejection& r);
    void setRange(const EditableDim& d);
    /// The curve shown is `d`'s and some of its values were rejected: a drag of `d` snaps (dragValue).
    bool snaps(const EditableDim& d) const;
    /// `v` where a drag of `d` lands (core's dragValue on the curve, within d's range); `v` itself when the
    /// curve is of another dim or every point of it applies.
    int64_t snapped(const EditableDim& d, int64_t v) const;

    SessionController* controller_;
    SnapshotPtr snap_;
    NodeId node_;
    std::vector<EditableDim> dims_;
    int index_ = -1;
    /// The dim a held slider edits, and the model it was pressed on.
    struct Drag {
        EditableDim dim;
        uint64_t modelId;
        int64_t lastSent;
    };
    std::optional<Drag> dragging_;
    std::optional<NodeId> pendingNode_; ///< a selection that arrived mid-drag, shown at release
    QComboBox* dim_;
    QSlider* slider_;
    QSpinBox* spin_;
    QLabel* label_;
    QCustomPlot* plot_;
    SweepResult curve_;
    std::string curveDim_; ///< the control curve_ is of (controlKey): a drag snaps only to its own curve
    QString sweptKey_; ///< what the last sweep was asked for (model, state, dim, range)
    QString rejected_; ///< the last rejected drag value's reason, shown until a new state arrives
};

} // namespace bpu::ui
