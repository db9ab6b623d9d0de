// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace bpu::ui {

/// A plain-text label that gives way: narrower than its text, it shows the text cut with an ellipsis, the
/// whole text staying in its tooltip. For the status bar's less important parts, so the figures beside them
/// are never the ones cut off (issue 52).
class ElidingLabel : public QLabel {
public:
    using QLabel::QLabel;
    void setFullText(const QString& text);
    QString fullText() const { return full_; }
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void refit();
    QString full_;
};

} // namespace bpu::ui
