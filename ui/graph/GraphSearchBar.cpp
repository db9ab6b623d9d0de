// SPDX-License-Identifier: MIT
#include "GraphSearchBar.h"

#include "GraphView.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace bpu::ui {

GraphSearchBar::GraphSearchBar(GraphView* view)
    : QFrame(view)
    , view_(view)
    , edit_(new QLineEdit(this))
    , count_(new QLabel(this)) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    edit_->setPlaceholderText(tr("Find by name or op type (op:If = exactly If)"));
    edit_->setClearButtonEnabled(true);
    // Narrow enough that the whole bar fits a graph view beside both docks (1100 px window).
    edit_->setMinimumWidth(100);
    edit_->installEventFilter(this);
    auto* prev = new QToolButton(this);
    prev->setArrowType(Qt::UpArrow);
    prev->setToolTip(tr("Previous match (Shift+Enter)"));
    auto* next = new QToolButton(this);
    next->setArrowType(Qt::DownArrow);
    next->setToolTip(tr("Next match (Enter)"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u00d7"));
    close->setToolTip(tr("Close (Esc)"));
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    row->addWidget(edit_);
    row->addWidget(count_);
    row->addWidget(prev);
    row->addWidget(next);
    row->addWidget(close);
    // The count has room for its longest text, so the bar keeps its size and its buttons stay in view.
    count_->setMinimumWidth(count_->fontMetrics().horizontalAdvance(tr("%1 of %2").arg(88888).arg(88888)));
    count_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    connect(edit_, &QLineEdit::textChanged, this, [this](const QString& t) { view_->search(t); });
    connect(edit_, &QLineEdit::returnPressed, this, [this] { view_->findNext(); });
    connect(prev, &QToolButton::clicked, this, [this] { view_->findPrevious(); });
    connect(next, &QToolButton::clicked, this, [this] { view_->findNext(); });
    connect(view_, &GraphView::matchesChanged, this, &GraphSearchBar::updateCount);
    connect(close, &QToolButton::clicked, this, [this] {
        edit_->clear();
        hide();
        view_->setFocus();
    });
}

void GraphSearchBar::activate() {
    show();
    raise();
    edit_->setFocus();
    edit_->selectAll();
}

void GraphSearchBar::clear() {
    edit_->clear();
}

void GraphSearchBar::updateCount() {
    const int n = static_cast<int>(view_->matches().size());
    if (edit_->text().trimmed().isEmpty())
        count_->clear();
    else if (n == 0)
        count_->setText(tr("0 matches"));
    else if (view_->currentMatchIndex() >= 0)
        count_->setText(tr("%1 of %2").arg(view_->currentMatchIndex() + 1).arg(n));
    else
        count_->setText(n == 1 ? tr("1 match") : tr("%1 matches").arg(n));
}

bool GraphSearchBar::eventFilter(QObject* watched, QEvent* e) {
    if (watched == edit_ && e->type() == QEvent::KeyPress) {
        auto* k = static_cast<QKeyEvent*>(e);
        if (k->key() == Qt::Key_Escape) {
            edit_->clear();
            hide();
            view_->setFocus();
            return true;
        }
        if ((k->key() == Qt::Key_Return || k->key() == Qt::Key_Enter) &&
            (k->modifiers() & Qt::ShiftModifier)) {
            view_->findPrevious();
            return true;
        }
    }
    return QFrame::eventFilter(watched, e);
}

} // namespace bpu::ui
