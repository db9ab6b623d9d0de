// SPDX-License-Identifier: MIT
// Internal to ui/report: lays the report document out into pages of paint operations.
#pragma once

#include "PageFlow.h"
#include "PdfReportWriter.h"
#include "ReportFonts.h"
#include "ui/graph/SceneData.h"
#include "ui/style/Palette.h"

#include <memory>
#include <vector>

class QPaintDevice;

namespace bpu::ui {

class PdfComposer {
public:
    PdfComposer(const report::ReportDocument& doc, const ChartPictures& charts, const ReportPage& page,
                QPaintDevice* device, const Progress& progress);

    /// Lays out every block (no painting yet).
    void compose();
    /// Paints page `index` (header, footer, content) on the active painter.
    void paintPage(QPainter& p, int index) const;
    int pageCount() const { return flow_.pageCount(); }
    int overflows() const { return flow_.overflows(); }

private:
    /// A headline number on the cover.
    struct Tile {
        QString label, value, detail;
    };

    // PdfComposer.cpp
    void cover();
    void drawTiles(const std::vector<Tile>& tiles);
    void section(const report::Section& s);
    void heading(const report::Heading& h);
    void paragraph(const QString& text, const QFont& font, const QColor& color, double spaceAfter);
    void rule(const report::RuleText& r);
    void note(const report::Note& n);
    void paintHeaderFooter(QPainter& p, int index) const;
    // PdfTables.cpp
    void table(const report::Table& t, const std::string& caption);
    void keyValues(const report::KeyValues& kv);
    double keyColumnWidth(const report::KeyValues& kv) const;
    // PdfFigures.cpp
    void chart(const report::ChartBlock& c);
    void graphPair(const report::Section& section);
    void hotspotFigure(const report::FigureBlock& f);
    std::shared_ptr<const SceneData> scene();
    std::shared_ptr<const SceneData> focusScene(); ///< the hotspot's neighbourhood laid out on its own

    double pt(double points) const { return page_.pt(points); }
    TextBox makeText(const QString& s, const QFont& f, double width, Qt::Alignment a = Qt::AlignLeft,
                     int boldPrefix = 0) const {
        return TextBox(s, f, width, device_, a, boldPrefix);
    }

    const report::ReportDocument& doc_;
    const ChartPictures& charts_;
    ReportPage page_;
    QPaintDevice* device_;
    const Progress& progress_;
    double fraction_ = 0; ///< progress of the section being laid out
    ReportFonts fonts_;
    PageFlow flow_;
    std::shared_ptr<const SceneData> scene_, focusScene_;
    bool graphPairDone_ = false;
    mutable double wideKeyW_ = 0; ///< the shared wide key column (keyColumnWidth), computed once
};

/// Colours of the report's own furniture.
namespace reportColors {
inline QColor ink() {
    return QColor(26, 26, 26);
}
inline QColor muted() {
    return QColor(90, 90, 90);
}
inline QColor accent() {
    return style::categorical(0); // Okabe-Ito blue
}
inline QColor ruleBar() {
    return style::categorical(2); // Okabe-Ito bluish green
}
inline QColor ruleFill() {
    return QColor(242, 250, 247);
}
inline QColor headerFill() {
    return QColor(228, 236, 245);
}
inline QColor stripe() {
    return QColor(246, 247, 249);
}
inline QColor line() {
    return QColor(200, 204, 210);
}
} // namespace reportColors

inline QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace bpu::ui
