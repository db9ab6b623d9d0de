// SPDX-License-Identifier: MIT
// Small inline-SVG charts for the HTML report, drawn from the same ChartData the QCustomPlot charts use.
#include "ReportFormat.h"
#include "ReportRenderers.h"
#include "core/analysis/AnalysisTypes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace bpu::report {

std::string categoricalHex(int index) {
    // Okabe & Ito (2008), "Color Universal Design", black left out; same order as ui::palette::categorical.
    static const char* kColors[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                    "#56B4E9", "#D55E00", "#F0E442", "#999999"};
    constexpr int n = sizeof(kColors) / sizeof(kColors[0]);
    return kColors[((index % n) + n) % n];
}

namespace {

/// A log axis tick as a power of ten with a raised exponent ("10" and a superscript "-1"), as the PDF's
/// charts label it, rather than the exponent notation "1e-1".
std::string powerOfTen(int e) {
    return "10<tspan baseline-shift=\"super\" font-size=\"8\">" + std::to_string(e) + "</tspan>";
}

std::string esc(const std::string& s) {
    std::string out;
    for (char ch : s) {
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += ch;
        }
    }
    return out;
}

/// Keeps the end of a long node name, where the distinguishing part usually is ("/model.22/cv2.0/.../Conv").
std::string shorten(const std::string& s, size_t max) {
    if (s.size() <= max)
        return s;
    return "..." + s.substr(s.size() - (max - 3));
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

} // namespace

std::string barChartSvg(const BarSeries& s) {
    const double labelW = 270, barW = 360, valueW = 130, rowH = 18, top = 24;
    const double width = labelW + barW + valueW, height = top + rowH * double(s.items.size()) + 34;
    double maxV = 0;
    for (const auto& b : s.items)
        maxV = std::max(maxV, b.value);
    if (maxV <= 0)
        maxV = 1;
    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 " << num(width) << " "
       << num(height) << "\" width=\"" << num(width) << "\" height=\"" << num(height)
       << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    os << "<text x=\"0\" y=\"14\" font-weight=\"bold\">" << esc(s.title) << "</text>\n";
    for (size_t i = 0; i < s.items.size(); ++i) {
        const BarItem& b = s.items[i];
        const double y = top + rowH * double(i);
        const double w = std::max(1.0, barW * b.value / maxV);
        os << "<text x=\"" << num(labelW - 6) << "\" y=\"" << num(y + 13) << "\" text-anchor=\"end\"><title>"
           << esc(b.label) << "</title>" << esc(shorten(b.label, 44)) << "</text>";
        os << "<rect x=\"" << num(labelW) << "\" y=\"" << num(y + 3) << "\" width=\"" << num(w)
           << "\" height=\"" << num(rowH - 5) << "\" fill=\"" << categoricalHex(b.category) << "\"/>";
        os << "<text x=\"" << num(labelW + w + 4) << "\" y=\"" << num(y + 13) << "\">"
           << esc(fmt::number(std::round(b.value * 10) / 10))
           << (b.detail.empty() ? "" : " (" + esc(b.detail) + ")") << "</text>\n";
    }
    const double axisY = top + rowH * double(s.items.size()) + 4;
    os << "<line x1=\"" << num(labelW) << "\" y1=\"" << num(axisY) << "\" x2=\"" << num(labelW + barW)
       << "\" y2=\"" << num(axisY) << "\" stroke=\"#444\"/>";
    os << "<text x=\"" << num(labelW) << "\" y=\"" << num(axisY + 14) << "\">0</text>";
    os << "<text x=\"" << num(labelW + barW) << "\" y=\"" << num(axisY + 14) << "\" text-anchor=\"end\">"
       << esc(fmt::number(std::round(maxV * 10) / 10) + " " + s.valueAxis) << "</text>\n";
    // Legend only when several categories actually occur.
    std::vector<int> used;
    for (const auto& b : s.items)
        if (std::find(used.begin(), used.end(), b.category) == used.end())
            used.push_back(b.category);
    if (used.size() > 1 || s.categories.size() > 1) {
        double x = labelW;
        for (size_t c = 0; c < s.categories.size(); ++c) {
            os << "<rect x=\"" << num(x) << "\" y=\"" << num(axisY + 20)
               << "\" width=\"10\" height=\"10\" fill=\"" << categoricalHex(int(c)) << "\"/><text x=\""
               << num(x + 14) << "\" y=\"" << num(axisY + 29) << "\">" << esc(s.categories[c]) << "</text>";
            x += 24 + 7.0 * double(s.categories[c].size());
        }
    }
    os << "</svg>\n";
    return os.str();
}

std::string rooflineSvg(const RooflineData& d) {
    const double left = 70, right = 20, top = 20, bottom = 44, plotW = 620, plotH = 340;
    const double width = left + plotW + right, height = top + plotH + bottom;
    double xmin = d.ridgeIntensity, xmax = d.ridgeIntensity, ymin = d.roofMacsPerSecond,
           ymax = d.peakMacsPerSecond;
    for (const auto& r : d.otherRoofs)
        ymin = std::min(ymin, r.macsPerSecond);
    for (const auto& p : d.points) {
        xmin = std::min(xmin, p.intensity);
        xmax = std::max(xmax, p.intensity);
        ymin = std::min(ymin, p.macsPerSecond);
        ymax = std::max(ymax, p.macsPerSecond);
    }
    // Whole decades with room for a marker: a point exactly on a decade must not sit on the axis.
    constexpr double kRoom = 1.25;
    // The decades are bounded whatever the numbers: an infinite value once made the gridline loop run
    // forever (and a value near 1e308 still spans only ~300 decades).
    auto decade = [](double v, double fallback) {
        const double l = std::log10(v);
        return std::isfinite(l) ? std::clamp(l, -30.0, 308.0) : fallback;
    };
    const double lx0 = std::floor(decade(std::max(xmin / kRoom, 1e-3), -3)),
                 lx1 = std::max(lx0 + 1, std::ceil(decade(std::max(xmax * kRoom, 1e-2), 3)));
    const double ly0 = std::floor(decade(std::max(ymin / kRoom, 1.0), 0)),
                 ly1 = std::max(ly0 + 1, std::ceil(decade(std::max(ymax * kRoom, 10.0), 15)));
    auto X = [&](double v) {
        return left + plotW * (std::log10(v) - lx0) / (lx1 - lx0);
    };
    auto Y = [&](double v) {
        return top + plotH * (1 - (std::log10(v) - ly0) / (ly1 - ly0));
    };
    std::ostringstream os;
    os << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 " << num(width) << " "
       << num(height) << "\" width=\"" << num(width) << "\" height=\"" << num(height)
       << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    os << "<rect x=\"" << num(left) << "\" y=\"" << num(top) << "\" width=\"" << num(plotW) << "\" height=\""
       << num(plotH) << "\" fill=\"none\" stroke=\"#444\"/>\n";
    for (double e = lx0; e <= lx1 + 1e-9; e += 1) {
        const double x = X(std::pow(10, e));
        os << "<line x1=\"" << num(x) << "\" y1=\"" << num(top) << "\" x2=\"" << num(x) << "\" y2=\""
           << num(top + plotH) << "\" stroke=\"#ddd\"/><text x=\"" << num(x) << "\" y=\""
           << num(top + plotH + 14) << "\" text-anchor=\"middle\">" << powerOfTen(int(e)) << "</text>\n";
    }
    for (double e = ly0; e <= ly1 + 1e-9; e += 1) {
        const double y = Y(std::pow(10, e));
        os << "<line x1=\"" << num(left) << "\" y1=\"" << num(y) << "\" x2=\"" << num(left + plotW)
           << "\" y2=\"" << num(y) << "\" stroke=\"#ddd\"/><text x=\"" << num(left - 4) << "\" y=\""
           << num(y + 4) << "\" text-anchor=\"end\">" << powerOfTen(int(e)) << "</text>\n";
    }
    // The roof: slanted (bandwidth) up to the ridge, flat (compute) after it.
    const double x0 = std::pow(10, lx0), x1 = std::pow(10, lx1);
    const double yStart = std::max(d.roofAt(x0), std::pow(10, ly0));
    const double xStart = yStart / d.ddrBytesPerSecond;
    os << "<polyline fill=\"none\" stroke=\"#000\" stroke-width=\"2\" points=\""
       << num(X(std::max(x0, xStart))) << "," << num(Y(yStart)) << " " << num(X(d.ridgeIntensity)) << ","
       << num(Y(d.roofMacsPerSecond)) << " " << num(X(x1)) << "," << num(Y(d.roofMacsPerSecond)) << "\"/>\n";
    // Issue 63: the flat roof of every other rate kind the points are priced at, dashed, from its ridge on.
    for (const auto& other : d.otherRoofs) {
        const double rx = std::max(x0, other.macsPerSecond / d.ddrBytesPerSecond);
        os << "<line x1=\"" << num(X(rx)) << "\" y1=\"" << num(Y(other.macsPerSecond)) << "\" x2=\""
           << num(X(x1)) << "\" y2=\"" << num(Y(other.macsPerSecond))
           << "\" stroke=\"#000\" stroke-dasharray=\"6 3\"/><text x=\"" << num(X(x1) - 4) << "\" y=\""
           << num(Y(other.macsPerSecond) - 3) << "\" text-anchor=\"end\">" << esc(other.name) << "</text>\n";
    }
    os << "<line x1=\"" << num(X(d.ridgeIntensity)) << "\" y1=\"" << num(top) << "\" x2=\""
       << num(X(d.ridgeIntensity)) << "\" y2=\"" << num(top + plotH)
       << "\" stroke=\"#666\" stroke-dasharray=\"4 3\"/>";
    os << "<text x=\"" << num(X(d.ridgeIntensity) + 4) << "\" y=\"" << num(top + 12) << "\">ridge "
       << esc(fmt::number(std::round(d.ridgeIntensity))) << "</text>\n";
    for (const auto& p : d.points) {
        const bool compute = p.bound == Bound::Compute;
        const std::string color = compute ? categoricalHex(0) : categoricalHex(5);
        const double x = X(p.intensity), y = Y(p.macsPerSecond);
        if (compute)
            os << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"3.2\" fill=\"" << color
               << "\">";
        else
            os << "<rect x=\"" << num(x - 3) << "\" y=\"" << num(y - 3)
               << "\" width=\"6\" height=\"6\" fill=\"" << color << "\">";
        os << "<title>" << esc(p.label) << "</title>" << (compute ? "</circle>" : "</rect>") << "\n";
    }
    os << "<text x=\"" << num(left + plotW / 2) << "\" y=\"" << num(height - 8)
       << "\" text-anchor=\"middle\">intensity (padded MACs per DDR byte)</text>";
    os << "<text transform=\"rotate(-90)\" x=\"" << num(-(top + plotH / 2))
       << "\" y=\"14\" text-anchor=\"middle\">"
          "achieved MACs/s</text>";
    os << "<circle cx=\"" << num(left + 12) << "\" cy=\"" << num(top + 12) << "\" r=\"3.2\" fill=\""
       << categoricalHex(0) << "\"/><text x=\"" << num(left + 20) << "\" y=\"" << num(top + 16)
       << "\">compute-bound (" << d.computeBound << ")</text>";
    os << "<rect x=\"" << num(left + 9) << "\" y=\"" << num(top + 25) << "\" width=\"6\" height=\"6\" fill=\""
       << categoricalHex(5) << "\"/><text x=\"" << num(left + 20) << "\" y=\"" << num(top + 32)
       << "\">memory-bound (" << d.memoryBound << ")</text>\n";
    os << "</svg>\n";
    return os.str();
}

} // namespace bpu::report
