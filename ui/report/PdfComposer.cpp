// SPDX-License-Identifier: MIT
#include "PdfComposer.h"

#include "core/report/ReportRenderers.h"

#include <QFontMetricsF>
#include <QPainter>
#include <array>

namespace bpu::ui {

using namespace reportColors;

PdfComposer::PdfComposer(const report::ReportDocument& doc, const ChartPictures& charts,
                         const ReportPage& page, QPaintDevice* device, const Progress& progress)
    : doc_(doc)
    , charts_(charts)
    , page_(page)
    , device_(device)
    , progress_(progress)
    , fonts_(ReportFonts::make())
    , flow_(page.content) {}

void PdfComposer::compose() {
    cover();
    const size_t n = doc_.sections.size();
    for (size_t i = 0; i < n; ++i) {
        progress_.checkCancel();
        fraction_ = 0.1 + 0.4 * double(i) / double(n);
        progress_(fraction_, "laying out: " + doc_.sections[i].title);
        section(doc_.sections[i]);
    }
}

void PdfComposer::cover() {
    const double w = flow_.width(), x = flow_.left();
    // facts.cover (optional) lets another kind of document (a comparison) name itself and pick its tiles.
    const nlohmann::json cover = doc_.facts.is_object() && doc_.facts.contains("cover")
                                     ? doc_.facts["cover"]
                                     : nlohmann::json::object();
    const TextBox kicker =
        makeText(qs(cover.value("kicker", std::string("BpuScope optimization report"))), fonts_.subtitle, w);
    const TextBox title = makeText(qs(doc_.modelName), fonts_.title, w);
    flow_.flowText(kicker, x, muted());
    flow_.flowText(title, x, accent());
    flow_.advance(pt(4));
    // The deployment is the summary's first line below; the cover names the model, target and date.
    const QString meta = qs("Model file: " + doc_.modelFile + "\nTarget: " + doc_.targetName +
                            "\nGenerated " + doc_.generatedAt + " by " + doc_.generator);
    for (const QString& line : meta.split(QLatin1Char('\n')))
        flow_.flowText(makeText(line, fonts_.body, w), x, ink());
    flow_.advance(pt(10));

    // A partial result says so before any figure: an amber box above the tiles.
    if (const std::string partial = report::partialLine(doc_); !partial.empty()) {
        const double pad = pt(5), bar = pt(3);
        const TextBox box = makeText(qs(partial), fonts_.bold, w - bar - 2 * pad);
        const double h = box.height() + 2 * pad, y = flow_.y();
        flow_.add([box, x, y, w, h, pad, bar](QPainter& p) {
            p.fillRect(QRectF(x, y, w, h), QColor(255, 236, 179));
            p.fillRect(QRectF(x, y, bar, h), QColor(230, 159, 0));
            box.draw(p, QPointF(x + bar + pad, y + pad), QColor(62, 39, 35));
        });
        flow_.advance(h + pt(8));
    }
    // Headline tiles: the numbers a reader wants before anything else (none in a document without them).
    std::vector<Tile> tiles;
    for (const auto& k : report::headlineCards(doc_))
        tiles.push_back({qs(k.label), qs(k.value), qs(k.detail)});
    drawTiles(tiles);
    // Then every diagnostic of the result (the first few; the rest counted).
    for (const std::string& line : report::firstPageDiagnostics(doc_))
        paragraph(qs(line), fonts_.tiny, muted(), pt(1));
    if (!doc_.diagnostics.empty())
        flow_.advance(pt(6));
}

void PdfComposer::drawTiles(const std::vector<Tile>& tiles) {
    if (tiles.empty())
        return;
    const double w = flow_.width(), x = flow_.left();
    const double gap = pt(6), tileW = (w - gap * double(tiles.size() - 1)) / double(tiles.size());
    std::vector<std::array<TextBox, 3>> boxes;
    double tileH = 0;
    for (const Tile& t : tiles) {
        // The value on one line: the heading size, or smaller when that wraps ("209 BPU / 0 CPU").
        TextBox value = makeText(t.value, fonts_.h1, tileW - pt(12));
        if (value.lineCount() > 1)
            value = makeText(t.value, fonts_.h2, tileW - pt(12));
        std::array<TextBox, 3> b{makeText(t.label, fonts_.small, tileW - pt(12)), value,
                                 makeText(t.detail, fonts_.tiny, tileW - pt(12))};
        tileH = std::max(tileH, b[0].height() + b[1].height() + b[2].height() + pt(14));
        boxes.push_back(b);
    }
    const double y = flow_.y();
    flow_.add([boxes, x, y, tileW, tileH, gap, this](QPainter& p) {
        for (size_t i = 0; i < boxes.size(); ++i) {
            const QRectF r(x + double(i) * (tileW + gap), y, tileW, tileH);
            p.setPen(QPen(line(), 0.8));
            p.setBrush(QColor(245, 248, 252));
            p.drawRoundedRect(r, pt(3), pt(3));
            p.fillRect(QRectF(r.left(), r.top(), pt(3), r.height()), accent());
            double ty = r.top() + pt(6);
            boxes[i][0].draw(p, QPointF(r.left() + pt(8), ty), muted());
            ty += boxes[i][0].height();
            boxes[i][1].draw(p, QPointF(r.left() + pt(8), ty), ink());
            ty += boxes[i][1].height();
            boxes[i][2].draw(p, QPointF(r.left() + pt(8), ty), muted());
        }
    });
    flow_.advance(tileH);
    flow_.advance(pt(14));
}

void PdfComposer::section(const report::Section& s) {
    // A section starts on a new page unless most of the current one is still free.
    if (s.number > 1 && flow_.remaining() < flow_.content().height() * 0.45)
        flow_.newPage();
    else if (s.number > 1)
        flow_.advance(pt(16));
    const TextBox h =
        makeText(QStringLiteral("%1. %2").arg(s.number).arg(qs(s.title)), fonts_.h1, flow_.width());
    flow_.ensure(h.height() + pt(60));
    flow_.beginKeep();
    flow_.flowText(h, flow_.left(), accent());
    const double y = flow_.y() + pt(2);
    const double x = flow_.left(), w = flow_.width();
    flow_.add([x, y, w, this](QPainter& p) {
        p.setPen(QPen(accent(), pt(1.2)));
        p.drawLine(QPointF(x, y), QPointF(x + w, y));
    });
    flow_.advance(pt(10));
    flow_.armKeep();
    graphPairDone_ = false;
    for (const auto& block : s.blocks) {
        std::visit(
            [this, &s](const auto& b) {
                using T = std::decay_t<decltype(b)>;
                if constexpr (std::is_same_v<T, report::Heading>)
                    heading(b);
                else if constexpr (std::is_same_v<T, report::Paragraph>)
                    paragraph(qs(b.text), fonts_.body, ink(), pt(6));
                else if constexpr (std::is_same_v<T, report::KeyValues>)
                    keyValues(b);
                else if constexpr (std::is_same_v<T, report::TableBlock>)
                    table(b.table, b.caption);
                else if constexpr (std::is_same_v<T, report::RuleText>)
                    rule(b);
                else if constexpr (std::is_same_v<T, report::Note>)
                    note(b);
                else if constexpr (std::is_same_v<T, report::ChartBlock>)
                    chart(b);
                else if constexpr (std::is_same_v<T, report::FigureBlock>) {
                    if (b.kind == report::FigureKind::GraphHotspot)
                        hotspotFigure(b);
                    else
                        graphPair(s);
                }
            },
            block);
    }
}

void PdfComposer::heading(const report::Heading& h) {
    const QFont& font = h.level <= 2 ? fonts_.h2 : fonts_.h3;
    const TextBox box = makeText(qs(h.text), font, flow_.width());
    flow_.advance(pt(h.level <= 2 ? 8 : 6));
    // Keep a heading with the start of what follows it.
    flow_.ensure(box.height() + pt(h.level <= 2 ? 70 : 90));
    flow_.beginKeep();
    flow_.flowText(box, flow_.left(), h.level <= 2 ? accent() : ink());
    flow_.advance(pt(3));
    flow_.armKeep();
}

void PdfComposer::paragraph(const QString& s, const QFont& font, const QColor& color, double spaceAfter) {
    const TextBox box = makeText(s, font, flow_.width());
    // No orphan or widow lines: a paragraph of up to four lines moves whole, a longer one keeps two lines
    // on the page it starts on.
    if (box.lineCount() <= 4)
        flow_.ensure(box.height());
    else if (box.lineCount() > 1)
        flow_.ensure(box.lineBottom(1));
    flow_.flowText(box, flow_.left(), color);
    flow_.advance(spaceAfter);
}

void PdfComposer::note(const report::Note& n) {
    paragraph(qs(n.text), fonts_.italic, muted(), pt(5));
}

void PdfComposer::rule(const report::RuleText& r) {
    const QString label =
        QStringLiteral("Rule %1%2. ")
            .arg(qs(r.id), r.title.empty() ? QString() : QStringLiteral(" - ") + qs(r.title));
    const double pad = pt(5), bar = pt(2.5);
    const TextBox box = makeText(label + qs(r.text), fonts_.body, flow_.width() - bar - 2 * pad,
                                 Qt::AlignLeft, int(label.size()));
    const double h = box.height() + 2 * pad;
    flow_.ensure(h);
    const double x = flow_.left(), y = flow_.y(), w = flow_.width();
    flow_.add([box, x, y, w, h, pad, bar](QPainter& p) {
        p.fillRect(QRectF(x, y, w, h), ruleFill());
        p.fillRect(QRectF(x, y, bar, h), ruleBar());
        box.draw(p, QPointF(x + bar + pad, y + pad), ink());
    });
    flow_.advance(h);
    flow_.advance(pt(6));
}

void PdfComposer::paintHeaderFooter(QPainter& p, int index) const {
    const QRectF c = page_.content;
    const QFontMetricsF fm(fonts_.small, p.device());
    p.setFont(fonts_.small);
    p.setPen(muted());
    if (index > 0) {
        const QRectF header(c.left(), pt(22), c.width(), fm.height());
        p.drawText(header, Qt::AlignLeft | Qt::AlignVCenter, qs(doc_.title));
        p.drawText(header, Qt::AlignRight | Qt::AlignVCenter, qs(doc_.targetName));
        p.setPen(QPen(line(), pt(0.6)));
        p.drawLine(QPointF(c.left(), header.bottom() + pt(3)), QPointF(c.right(), header.bottom() + pt(3)));
    }
    const double fy = page_.page.height() - pt(30);
    p.setPen(QPen(line(), pt(0.6)));
    p.drawLine(QPointF(c.left(), fy - pt(3)), QPointF(c.right(), fy - pt(3)));
    p.setPen(muted());
    const QRectF footer(c.left(), fy, c.width(), fm.height());
    p.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter,
               qs(doc_.modelName + " \u00b7 generated " + doc_.generatedAt + " \u00b7 " + doc_.generator));
    p.drawText(footer, Qt::AlignRight | Qt::AlignVCenter,
               QStringLiteral("Page %1 of %2").arg(index + 1).arg(flow_.pageCount()));
}

void PdfComposer::paintPage(QPainter& p, int index) const {
    paintHeaderFooter(p, index);
    for (const auto& op : flow_.pages()[size_t(index)]) {
        p.save();
        op(p);
        p.restore();
    }
}

} // namespace bpu::ui
