// SPDX-License-Identifier: MIT
// Tables (column widths from hints or content, wrapped cells, header row repeated on every page) and
// key-value blocks.
#include "PdfComposer.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <numeric>

namespace bpu::ui {

using namespace reportColors;

namespace {

/// Natural column widths: the widest unwrapped header or cell (first rows only), clamped.
std::vector<double> naturalWidths(const report::Table& t, const QFont& font, const QFont& bold,
                                  QPaintDevice* device, double total) {
    const QFontMetricsF fm(font, device), bfm(bold, device);
    std::vector<double> w(t.headers.size(), 0);
    for (size_t c = 0; c < t.headers.size(); ++c)
        w[c] = bfm.horizontalAdvance(qs(t.headers[c]));
    const size_t sample = std::min<size_t>(t.rows.size(), 200);
    for (size_t r = 0; r < sample; ++r)
        for (size_t c = 0; c < t.headers.size() && c < t.rows[r].size(); ++c)
            w[c] = std::max(w[c], fm.horizontalAdvance(qs(t.rows[r][c])));
    for (double& v : w)
        v = std::clamp(v, total * 0.04, total * 0.5);
    return w;
}

} // namespace

void PdfComposer::table(const report::Table& t, const std::string& caption) {
    const size_t n = t.headers.size();
    if (n == 0)
        return;
    const double total = flow_.width(), padX = pt(3), padY = pt(1.8);
    std::vector<double> widths =
        t.widths.size() == n ? t.widths : naturalWidths(t, fonts_.small, fonts_.smallBold, device_, total);
    const double sum = std::accumulate(widths.begin(), widths.end(), 0.0);
    for (double& v : widths)
        v = v / sum * total;
    // No header and no short cell word (a number, "compute", "50.0%") may break inside a word: every column
    // is at least as wide as those. Longer words (node names) may still wrap anywhere.
    {
        const QFontMetricsF bfm(fonts_.smallBold, device_), fm(fonts_.small, device_);
        std::vector<double> minW(n);
        for (size_t c = 0; c < n; ++c) {
            for (const QString& word : qs(t.headers[c]).split(QLatin1Char(' '), Qt::SkipEmptyParts))
                minW[c] = std::max(minW[c], bfm.horizontalAdvance(word) + 2 * padX + 1);
            for (size_t r = 0; r < t.rows.size() && r < 200; ++r)
                if (c < t.rows[r].size())
                    for (const QString& word : qs(t.rows[r][c]).split(QLatin1Char(' '), Qt::SkipEmptyParts))
                        if (word.size() <= 12)
                            minW[c] = std::max(minW[c], fm.horizontalAdvance(word) + 2 * padX + 1);
        }
        double deficit = 0, spare = 0;
        for (size_t c = 0; c < n; ++c) {
            if (widths[c] < minW[c]) {
                deficit += minW[c] - widths[c];
                widths[c] = minW[c];
            } else {
                spare += widths[c] - minW[c];
            }
        }
        if (deficit > 0 && spare > 0)
            for (size_t c = 0; c < n; ++c)
                if (widths[c] > minW[c])
                    widths[c] -= (widths[c] - minW[c]) * std::min(1.0, deficit / spare);
        // Minimums wider than the page: scale everything back to fit.
        const double used = std::accumulate(widths.begin(), widths.end(), 0.0);
        if (used > total)
            for (double& v : widths)
                v *= total / used;
    }
    auto alignOf = [&](size_t c) {
        return c < t.align.size() && t.align[c] == report::Align::Right ? Qt::AlignRight : Qt::AlignLeft;
    };

    // Header cells, laid out once and drawn on every page the table reaches.
    std::vector<TextBox> header;
    double headerH = 0;
    for (size_t c = 0; c < n; ++c) {
        header.push_back(makeText(qs(t.headers[c]), fonts_.smallBold, widths[c] - 2 * padX, alignOf(c)));
        headerH = std::max(headerH, header.back().height());
    }
    headerH += 2 * padY;
    const TextBox captionBox = caption.empty() ? TextBox() : makeText(qs(caption), fonts_.italic, total);
    const TextBox continued = makeText(
        qs(caption.empty() ? std::string("(continued)") : caption + " (continued)"), fonts_.italic, total);

    const double x0 = flow_.left();
    auto drawHeader = [&](const TextBox& cap) {
        if (cap.lineCount() > 0) {
            flow_.flowText(cap, x0, muted());
            flow_.advance(pt(2));
        }
        const double y = flow_.y();
        flow_.add([header, widths, x0, y, headerH, padX, padY, total](QPainter& p) {
            p.fillRect(QRectF(x0, y, total, headerH), headerFill());
            double x = x0;
            for (size_t c = 0; c < header.size(); ++c) {
                header[c].draw(p, QPointF(x + padX, y + padY), ink());
                x += widths[c];
            }
        });
        flow_.advance(headerH);
    };

    bool first = true;
    for (size_t r = 0; r < t.rows.size() || (first && t.rows.empty()); ++r) {
        std::vector<TextBox> cells;
        double rowH = 0;
        if (r < t.rows.size()) {
            for (size_t c = 0; c < n; ++c) {
                const QString v = c < t.rows[r].size() ? qs(t.rows[r][c]) : QString();
                cells.push_back(makeText(v, fonts_.small, widths[c] - 2 * padX, alignOf(c)));
                rowH = std::max(rowH, cells.back().height());
            }
            rowH += 2 * padY;
        }
        if (first) {
            // Caption, header and the first row stay together.
            flow_.ensure(captionBox.height() + pt(2) + headerH + rowH);
            drawHeader(captionBox);
            first = false;
        } else if (rowH > flow_.remaining()) {
            flow_.newPage();
            drawHeader(continued);
        }
        if (cells.empty())
            break;
        const double y = flow_.y();
        const bool stripe = r % 2 == 1;
        flow_.add([cells, widths, x0, y, rowH, padX, padY, total, stripe, this](QPainter& p) {
            if (stripe)
                p.fillRect(QRectF(x0, y, total, rowH), reportColors::stripe());
            double x = x0;
            for (size_t c = 0; c < cells.size(); ++c) {
                cells[c].draw(p, QPointF(x + padX, y + padY), ink());
                x += widths[c];
            }
            p.setPen(QPen(line(), pt(0.4)));
            p.drawLine(QPointF(x0, y + rowH), QPointF(x0 + total, y + rowH));
        });
        flow_.advance(rowH);
    }
    flow_.advance(pt(8));
}

void PdfComposer::keyValues(const report::KeyValues& kv) {
    const double total = flow_.width(), gap = pt(8);
    if (!kv.title.empty()) {
        const TextBox title = makeText(qs(kv.title), fonts_.bold, total);
        flow_.ensure(title.height() + pt(30));
        flow_.flowText(title, flow_.left(), ink());
        flow_.advance(pt(2));
    }
    const QFontMetricsF bfm(fonts_.smallBold, device_);
    double keyW = 0;
    for (const auto& item : kv.items)
        keyW = std::max(keyW, bfm.horizontalAdvance(qs(item.key)));
    // One key column width for every block (unless a key needs more), so consecutive blocks line up.
    keyW = std::clamp(keyW + pt(2), total * 0.2, total * 0.3);
    const double valueW = total - keyW - gap;
    for (const auto& item : kv.items) {
        const TextBox key = makeText(qs(item.key), fonts_.smallBold, keyW);
        const TextBox value = makeText(qs(item.value), fonts_.body, valueW);
        const double h = std::max(key.height(), value.height()) + pt(1.5);
        if (h > flow_.remaining() && !flow_.atPageTop())
            flow_.newPage();
        const double x = flow_.left(), y = flow_.y();
        // The key is smaller than the value: drop it to the value's baseline region.
        const double keyDy = pt(0.8);
        flow_.add([key, value, x, y, keyW, gap, keyDy](QPainter& p) {
            key.draw(p, QPointF(x, y + keyDy), muted());
            value.draw(p, QPointF(x + keyW + gap, y), ink());
        });
        flow_.advance(h);
    }
    flow_.advance(pt(6));
}

} // namespace bpu::ui
