// SPDX-License-Identifier: MIT
#include "EstimateLabel.h"

#include <QEvent>
#include <QStatusBar>

namespace bpu::ui {

void EstimateLabel::setTexts(const QString& full, const QString& compact) {
    full_ = full;
    compact_ = compact;
    QLabel probe; // the width the full text would take, in this label's font and format
    probe.setTextFormat(textFormat());
    probe.setFont(font());
    probe.setText(full);
    fullWidth_ = probe.sizeHint().width();
    setToolTip(full);
    refit();
}

bool EstimateLabel::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::Resize && qobject_cast<QStatusBar*>(watched))
        refit();
    return QLabel::eventFilter(watched, e);
}

void EstimateLabel::refit() {
    auto* bar = qobject_cast<QStatusBar*>(parentWidget());
    int room = bar ? bar->width() - 24 : width(); // the size grip and the margins
    if (bar)
        for (QWidget* w : bar->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
            if (w != this && w->isVisible() && w->sizePolicy().horizontalPolicy() != QSizePolicy::Ignored)
                room -= w->sizeHint().width(); // the warning chip, progress bars, Cancel buttons
    const QString& want = fullWidth_ <= room ? full_ : compact_;
    if (text() != want)
        setText(want);
}

} // namespace bpu::ui
