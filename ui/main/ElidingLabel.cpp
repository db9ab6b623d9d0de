// SPDX-License-Identifier: MIT
#include "ElidingLabel.h"

#include <QFontMetrics>
#include <QResizeEvent>

namespace bpu::ui {

void ElidingLabel::setFullText(const QString& text) {
    full_ = text;
    setToolTip(text);
    refit();
    updateGeometry();
}

QSize ElidingLabel::minimumSizeHint() const {
    // As narrow as an ellipsis: the layout may take the rest of the width for what must stay whole.
    return {fontMetrics().horizontalAdvance(QStringLiteral("\u2026")), QLabel::minimumSizeHint().height()};
}

void ElidingLabel::resizeEvent(QResizeEvent* e) {
    QLabel::resizeEvent(e);
    refit();
}

void ElidingLabel::refit() {
    const QString shown =
        fontMetrics().elidedText(full_, Qt::ElideRight, std::max(0, contentsRect().width()));
    if (shown != text())
        QLabel::setText(shown);
}

} // namespace bpu::ui
