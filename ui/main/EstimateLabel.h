// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace bpu::ui {

/// The status bar's estimate (rich text), never cut off: when the window is too narrow for the full text it
/// shows the compact one (the figures without the deployment line), then the minimal one (latency and FPS),
/// the full text staying in the tooltip.
/// It watches the status bar it is added to (install it as the bar's event filter).
class EstimateLabel : public QLabel {
public:
    using QLabel::QLabel;
    /// The texts from the longest to the shortest: the longest that fits is shown (the last when none does).
    void setTexts(const QString& full, const QString& compact, const QString& minimal);
    /// A label beside it that is kept whole (the delta against the baseline): its width is never the
    /// estimate's, even while a temporary status message hides both.
    void setNeighbour(QWidget* keptWhole) { neighbour_ = keptWhole; }
    bool eventFilter(QObject* watched, QEvent* e) override;

protected:
    void showEvent(QShowEvent* e) override;

private:
    void refit();

    QString full_, compact_, minimal_;
    int compactWidth_ = 0;
    QWidget* neighbour_ = nullptr;
    int fullWidth_ = 0; ///< the full text's width as a label draws it
};

} // namespace bpu::ui
