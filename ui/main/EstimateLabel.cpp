// SPDX-License-Identifier: MIT
#include "EstimateLabel.h"

#include <QEvent>
#include <QSizeGrip>
#include <QStatusBar>

namespace bpu::ui {

void EstimateLabel::setTexts(const QString& full, const QString& compact, const QString& minimal) {
    full_ = full;
    compact_ = compact;
    minimal_ = minimal;
    auto widthOf = [this](const QString& text) { // as this label draws it, in its font and format
        QLabel probe;
        probe.setTextFormat(textFormat());
        probe.setFont(font());
        probe.setText(text);
        return probe.sizeHint().width();
    };
    fullWidth_ = widthOf(full);
    compactWidth_ = widthOf(compact);
    setToolTip(full);
    refit();
}

bool EstimateLabel::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::Resize && qobject_cast<QStatusBar*>(watched))
        refit();
    return QLabel::eventFilter(watched, e);
}

void EstimateLabel::showEvent(QShowEvent* e) {
    QLabel::showEvent(e);
    refit(); // shown again after a temporary message: the room may have changed meanwhile
}

void EstimateLabel::refit() {
    auto* bar = qobject_cast<QStatusBar*>(parentWidget());
    int room = bar ? bar->width() - 24 : width(); // the size grip and the margins
    // Each item beside it takes its width and the status bar's spacing (about 6 px, and a separator line):
    // the warning chip, progress bars, Cancel buttons at their size, a label that gives way at its minimum.
    constexpr int kGap = 10;
    if (bar)
        for (QWidget* w : bar->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
            if (w != this && w != neighbour_ && w->isVisible() && !qobject_cast<QSizeGrip*>(w))
                room -= kGap + (w->sizePolicy().horizontalPolicy() == QSizePolicy::Ignored
                                    ? w->minimumSizeHint().width()
                                    : w->sizeHint().width());
    if (neighbour_)
        room -= kGap + neighbour_->sizeHint().width();
    const QString& want = fullWidth_ <= room ? full_ : compactWidth_ <= room ? compact_ : minimal_;
    if (text() != want)
        setText(want);
}

} // namespace bpu::ui
