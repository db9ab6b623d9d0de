// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

class QLabel;
class QPushButton;

namespace bpu {
struct Completeness;
}

namespace bpu::ui {

/// The strip over the graph that says a result is PARTIAL before any figure is read (issue 42): which inputs
/// are unresolved and how many nodes are guesses, with the two things to do about it - give the shape, or
/// read every diagnostic. Hidden while the result is complete; follows every snapshot, so an edit that gives
/// the input a shape clears it.
class ResultBanner : public QFrame {
    Q_OBJECT
public:
    explicit ResultBanner(QWidget* parent = nullptr);
    void setCompleteness(const Completeness& c);
    /// The banner's sentence (tests).
    QString text() const;

signals:
    void setShapeRequested();
    void diagnosticsRequested();

private:
    QLabel* text_ = nullptr;
    QPushButton* shape_ = nullptr;
    QPushButton* details_ = nullptr;
};

} // namespace bpu::ui
