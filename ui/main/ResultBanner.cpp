// SPDX-License-Identifier: MIT
#include "ResultBanner.h"

#include "core/model/Completeness.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace bpu::ui {

ResultBanner::ResultBanner(QWidget* parent)
    : QFrame(parent) {
    setObjectName(QStringLiteral("resultBanner"));
    setFrameShape(QFrame::StyledPanel);
    // Amber: a caution, neither an error (red) nor a selection (the palette's highlight).
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(255, 236, 179)); // amber 100: a caution that is not an error
    p.setColor(QPalette::WindowText, QColor(62, 39, 35));
    setPalette(p);
    text_ = new QLabel(this);
    text_->setWordWrap(true);
    text_->setTextFormat(Qt::PlainText);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    shape_ = new QPushButton(tr("Set Input Shape..."), this);
    shape_->setToolTip(tr("Give the unresolved dims a value and re-open the model with them"));
    details_ = new QPushButton(tr("Diagnostics..."), this);
    details_->setToolTip(tr("Every warning and note of this result"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 8, 4);
    row->addWidget(text_, 1);
    row->addWidget(shape_);
    row->addWidget(details_);
    connect(shape_, &QPushButton::clicked, this, &ResultBanner::setShapeRequested);
    connect(details_, &QPushButton::clicked, this, &ResultBanner::diagnosticsRequested);
    hide();
}

void ResultBanner::setCompleteness(const Completeness& c) {
    setVisible(!c.complete());
    if (c.complete()) {
        text_->clear();
        return;
    }
    text_->setText(tr("PARTIAL: %1.").arg(QString::fromStdString(c.summary())));
}

QString ResultBanner::text() const {
    return text_->text();
}

} // namespace bpu::ui
