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

/// A table up to this fraction of a page's content height is moved whole to the next page rather than split.
constexpr double kKeepTogether = 0.5;

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
            for (size_t r = 0; r < t.rows.size() && r < 200; ++r) {
                if (c >= t.rows[r].size())
                    continue;
                const QString cell = qs(t.rows[r][c]);
                if (cell.size() <= 10) { // a short cell ("368.6 M", "+12.5%") stays on one line
                    minW[c] = std::max(minW[c], fm.horizontalAdvance(cell) + 2 * padX + 1);
                    continue;
                }
                for (const QString& word : cell.split(QLatin1Char(' '), Qt::SkipEmptyParts))
                    if (word.size() <= 18) // op types ("GlobalAveragePool"), numbers, short names
                        minW[c] = std::max(minW[c], fm.horizontalAdvance(word) + 2 * padX + 1);
            }
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

    // Every row laid out first: a short table is kept on one page rather than split for a row or two.
    std::vector<std::vector<TextBox>> rows(t.rows.size());
    std::vector<double> rowHeights(t.rows.size(), 0);
    double bodyH = 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
        for (size_t c = 0; c < n; ++c) {
            const QString v = c < t.rows[r].size() ? qs(t.rows[r][c]) : QString();
            rows[r].push_back(makeText(v, fonts_.small, widths[c] - 2 * padX, alignOf(c)));
            rowHeights[r] = std::max(rowHeights[r], rows[r].back().height());
        }
        rowHeights[r] += 2 * padY;
        bodyH += rowHeights[r];
    }
    const double captionH = captionBox.height() + (captionBox.lineCount() > 0 ? pt(2) : 0);
    if (captionH + headerH + bodyH <= flow_.content().height() * kKeepTogether)
        flow_.ensure(captionH + headerH + bodyH);
    else // caption, header and the first row stay together
        flow_.ensure(captionH + headerH + (rowHeights.empty() ? 0 : rowHeights.front()));
    drawHeader(captionBox);
    for (size_t r = 0; r < rows.size(); ++r) {
        const double rowH = rowHeights[r];
        if (rowH > flow_.remaining()) {
            flow_.newPage();
            drawHeader(continued);
        }
        const double y = flow_.y();
        const bool stripe = r % 2 == 1;
        flow_.add([cells = rows[r], widths, x0, y, rowH, padX, padY, total, stripe, this](QPainter& p) {
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

double PdfComposer::keyColumnWidth(const report::KeyValues& kv) const {
    // Two key columns for the whole document, so the values of consecutive blocks line up: 20% of the width
    // for blocks whose keys fit in it, and one wider column (at most 30%) shared by every block with a long
    // key (evidence such as "elements_after_filtering").
    const QFontMetricsF bfm(fonts_.smallBold, device_);
    const double total = flow_.width(), narrow = total * 0.2;
    auto widest = [&](const report::KeyValues& block) {
        double w = 0;
        for (const auto& item : block.items)
            w = std::max(w, bfm.horizontalAdvance(qs(item.key)) + pt(2));
        return w;
    };
    if (widest(kv) <= narrow)
        return narrow;
    if (wideKeyW_ <= 0) {
        for (const auto& section : doc_.sections)
            for (const auto& block : section.blocks)
                if (const auto* other = std::get_if<report::KeyValues>(&block))
                    wideKeyW_ = std::max(wideKeyW_, widest(*other));
        wideKeyW_ = std::min(wideKeyW_, total * 0.3);
    }
    return wideKeyW_;
}

void PdfComposer::keyValues(const report::KeyValues& kv) {
    const double total = flow_.width(), gap = pt(8);
    if (!kv.title.empty()) {
        const TextBox title = makeText(qs(kv.title), fonts_.bold, total);
        flow_.ensure(title.height() + pt(30));
        flow_.beginKeep();
        flow_.flowText(title, flow_.left(), ink());
        flow_.advance(pt(2));
        flow_.armKeep();
    }
    const double keyW = keyColumnWidth(kv), valueW = total - keyW - gap;
    // The key is smaller than the value: drop it to the value's baseline region.
    const double keyDy = pt(0.8);
    for (const auto& item : kv.items) {
        const TextBox key = makeText(qs(item.key), fonts_.smallBold, keyW);
        const TextBox value = makeText(qs(item.value), fonts_.body, valueW);
        const double h = std::max(key.height(), value.height()) + pt(1.5);
        if (h <= flow_.content().height())
            flow_.ensure(h); // an item that fits on a page is never split
        if (h <= flow_.remaining()) {
            const double x = flow_.left(), y = flow_.y();
            flow_.add([key, value, x, y, keyW, gap, keyDy](QPainter& p) {
                key.draw(p, QPointF(x, y + keyDy), muted());
                value.draw(p, QPointF(x + keyW + gap, y), ink());
            });
            flow_.advance(h);
            continue;
        }
        // A long value (a fix of hundreds of edits, a long evidence list) continues on the next page line
        // by line, the key on its first part, rather than running into the footer.
        const int n = value.lineCount();
        int from = 0;
        while (from < n) {
            int to = from;
            while (to < n && value.lineBottom(to) - value.lineTop(from) <= flow_.remaining() + 0.01)
                ++to;
            if (to == from) {
                if (!flow_.atPageTop()) {
                    flow_.newPage();
                    continue;
                }
                to = from + 1;
            }
            const double x = flow_.left(), y = flow_.y();
            const bool withKey = from == 0;
            flow_.add([key, value, x, y, keyW, gap, keyDy, from, to, withKey](QPainter& p) {
                if (withKey)
                    key.draw(p, QPointF(x, y + keyDy), muted());
                value.drawLines(p, QPointF(x + keyW + gap, y), from, to, ink());
            });
            flow_.advance(value.lineBottom(to - 1) - value.lineTop(from));
            from = to;
            if (from < n)
                flow_.newPage();
        }
        flow_.advance(pt(1.5));
    }
    flow_.advance(pt(6));
}

} // namespace bpu::ui
