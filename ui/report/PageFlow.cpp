// SPDX-License-Identifier: MIT
#include "PageFlow.h"

#include <QPainter>
#include <QTextCharFormat>
#include <QTextLayout>
#include <QTextOption>

namespace bpu::ui {

TextBox::TextBox(const QString& text, const QFont& font, double width, QPaintDevice* device,
                 Qt::Alignment align, int boldPrefix)
    : layout_(std::make_shared<QTextLayout>(text, font, device))
    , width_(width) {
    if (boldPrefix > 0) {
        QTextLayout::FormatRange range;
        range.start = 0;
        range.length = boldPrefix;
        range.format.setFontWeight(QFont::Bold);
        layout_->setFormats({range});
    }
    QTextOption option(align);
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    option.setUseDesignMetrics(true);
    layout_->setTextOption(option);
    layout_->setCacheEnabled(true);
    layout_->beginLayout();
    double y = 0;
    for (;;) {
        QTextLine line = layout_->createLine();
        if (!line.isValid())
            break;
        line.setLineWidth(width);
        line.setPosition(QPointF(0, y));
        y += line.height();
    }
    layout_->endLayout();
    height_ = y;
}

int TextBox::lineCount() const {
    return layout_ ? layout_->lineCount() : 0;
}

double TextBox::lineTop(int i) const {
    return layout_->lineAt(i).y();
}

double TextBox::lineBottom(int i) const {
    const QTextLine l = layout_->lineAt(i);
    return l.y() + l.height();
}

void TextBox::draw(QPainter& p, QPointF topLeft, const QColor& color) const {
    if (!layout_)
        return;
    p.setPen(color);
    layout_->draw(&p, topLeft);
}

void TextBox::drawLines(QPainter& p, QPointF topLeft, int from, int to, const QColor& color) const {
    if (!layout_ || from >= to)
        return;
    p.setPen(color);
    const double offset = lineTop(from);
    for (int i = from; i < to; ++i)
        layout_->lineAt(i).draw(&p, QPointF(topLeft.x(), topLeft.y() - offset));
}

PageFlow::PageFlow(QRectF content)
    : content_(content)
    , y_(content.top()) {
    pages_.emplace_back();
}

void PageFlow::advance(double dy) {
    if (pendingPaint_ && y_ + dy > content_.bottom() + 0.5)
        ++overflows_;
    pendingPaint_ = false;
    y_ += dy;
}

void PageFlow::add(Op op) {
    if (keep_.armed)
        keep_ = {}; // the following block has placed its first part: the heading stays with it
    pendingPaint_ = true;
    pages_.back().push_back(std::move(op));
}

void PageFlow::newPage() {
    const bool carry = keep_.armed && keep_.page == currentPage() && keep_.top > content_.top() + 0.5;
    std::vector<Op> carried;
    if (carry) {
        auto& ops = pages_.back();
        const double dy = content_.top() - keep_.top;
        for (size_t i = keep_.firstOp; i < ops.size(); ++i)
            carried.push_back([op = std::move(ops[i]), dy](QPainter& p) {
                p.translate(0, dy);
                op(p);
            });
        ops.resize(keep_.firstOp);
    }
    const double keptHeight = carry ? y_ - keep_.top : 0;
    pages_.emplace_back();
    y_ = content_.top() + keptHeight;
    if (carry) {
        pages_.back() = std::move(carried);
        keep_.page = currentPage();
        keep_.firstOp = 0;
        keep_.top = content_.top();
    }
}

void PageFlow::beginKeep() {
    if (keep_.active)
        return;
    keep_ = {true, false, currentPage(), pages_.back().size(), y_};
}

void PageFlow::armKeep() {
    if (!keep_.active)
        return;
    if (keep_.page != currentPage()) // the kept part itself started a page: it is at the top already
        keep_ = {true, false, currentPage(), 0, content_.top()};
    keep_.armed = true;
}

void PageFlow::ensure(double height) {
    if (!atPageTop() && height > remaining())
        newPage();
}

void PageFlow::flowText(const TextBox& box, double x, const QColor& color) {
    int from = 0;
    const int n = box.lineCount();
    while (from < n) {
        int to = from;
        while (to < n && box.lineBottom(to) - box.lineTop(from) <= remaining() + 0.01)
            ++to;
        if (to == from) {
            if (atPageTop()) {
                to = from + 1; // a line taller than a page: draw it anyway
            } else {
                newPage();
                continue;
            }
        }
        const double top = y_;
        add([box, x, top, from, to, color](QPainter& p) {
            box.drawLines(p, QPointF(x, top), from, to, color);
        });
        y_ += box.lineBottom(to - 1) - box.lineTop(from); // fits by construction
        pendingPaint_ = false;
        from = to;
        if (from < n)
            newPage();
    }
}

} // namespace bpu::ui
