// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

class QPainter;
class QPaintDevice;
class QTextLayout;

namespace bpu::ui {

/// Text laid out to a width with QTextLayout (word wrap, or anywhere for long node names), measured on the
/// output device so what is measured is what gets drawn. Cheap to copy (shares the layout).
class TextBox {
public:
    TextBox() = default;
    /// `boldPrefix` characters at the start are set in bold (a run-in label such as "Rule G3.").
    TextBox(const QString& text, const QFont& font, double width, QPaintDevice* device,
            Qt::Alignment align = Qt::AlignLeft, int boldPrefix = 0);

    double height() const { return height_; }
    double width() const { return width_; }
    int lineCount() const;
    /// Top and bottom of line `i`, relative to the box's top.
    double lineTop(int i) const;
    double lineBottom(int i) const;
    /// Draws every line with the box's top-left at `topLeft`, in `color`.
    void draw(QPainter& p, QPointF topLeft, const QColor& color) const;
    /// Draws lines [from, to) so that line `from` starts at `topLeft.y()`.
    void drawLines(QPainter& p, QPointF topLeft, int from, int to, const QColor& color) const;

private:
    std::shared_ptr<QTextLayout> layout_;
    double height_ = 0;
    double width_ = 0;
};

/// Pages as lists of paint operations, filled top to bottom inside a content rect. Laying out first and
/// painting afterwards is what lets every footer say "page X of N".
class PageFlow {
public:
    using Op = std::function<void(QPainter&)>;

    explicit PageFlow(QRectF content);

    const QRectF& content() const { return content_; }
    double left() const { return content_.left(); }
    double width() const { return content_.width(); }
    double y() const { return y_; }
    double bottom() const { return content_.bottom(); }
    double remaining() const { return content_.bottom() - y_; }
    bool atPageTop() const { return y_ <= content_.top() + 0.5; }
    int pageCount() const { return int(pages_.size()); }
    int currentPage() const { return int(pages_.size()) - 1; }

    /// Queues a paint operation on the current page.
    void add(Op op);
    /// Moves down by `dy`. The first advance after add() is taken as the height of what was added: if that
    /// runs past the bottom (into the footer) it is counted in overflows(), even at the top of a page: a
    /// block taller than a page must be split by its caller. Spacing goes in a separate advance().
    void advance(double dy);
    /// How many placements ran past the bottom of the content rect (into the footer); 0 in a good layout.
    int overflows() const { return overflows_; }
    void newPage();
    /// Starts a new page unless `height` fits below the current position (or the page is still empty).
    void ensure(double height);

    /// Keep-with-next for headings: what is placed between beginKeep() and armKeep() (a heading and its rule
    /// line) moves to the next page with the following block when that block's first placement starts a new
    /// page, so a heading never ends a page alone. The hold ends at the first op added after armKeep().
    /// A beginKeep() while a hold is armed keeps the earlier start (a section title followed by a heading).
    void beginKeep();
    void armKeep();

    /// Places `box` line by line, continuing on the next page where it does not fit; returns nothing, moves
    /// y.
    void flowText(const TextBox& box, double x, const QColor& color);

    const std::vector<std::vector<Op>>& pages() const { return pages_; }

private:
    QRectF content_;
    double y_;
    bool pendingPaint_ = false; ///< an op was added and the advance over its height is still to come
    struct Keep {
        bool active = false; ///< between beginKeep() and the first op after armKeep()
        bool armed = false;  ///< armKeep() was called: the next add() ends the hold
        int page = 0;
        size_t firstOp = 0; ///< index in pages_[page] of the first kept op
        double top = 0;     ///< y where the kept ops start
    } keep_;
    int overflows_ = 0;
    std::vector<std::vector<Op>> pages_;
};

} // namespace bpu::ui
