// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace bpu::ui {

/// The status bar's estimate (rich text), never cut off: when the window is too narrow for the full text it
/// shows the compact one (the figures without the deployment line), the full text staying in the tooltip.
/// It watches the status bar it is added to (install it as the bar's event filter).
class EstimateLabel : public QLabel {
public:
    using QLabel::QLabel;
    void setTexts(const QString& full, const QString& compact);
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void refit();

    QString full_, compact_;
    int fullWidth_ = 0; ///< the full text's width as a label draws it
};

} // namespace bpu::ui
