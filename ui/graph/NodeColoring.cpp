// SPDX-License-Identifier: MIT
#include "NodeColoring.h"

#include "OpCategory.h"

#include <QHash>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace bpu::ui {

namespace palette {

QColor categorical(int index) {
    // Okabe & Ito (2008), "Color Universal Design"; black left out (it is the text colour).
    static const QRgb kColors[] = {0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7,
                                   0x56B4E9, 0xD55E00, 0xF0E442, 0x999999};
    constexpr int n = sizeof(kColors) / sizeof(kColors[0]);
    return QColor::fromRgb(kColors[((index % n) + n) % n]);
}

QColor heat(double t) {
    // viridis (van der Walt & Smith, matplotlib), 9 stops, linear in between.
    static const QRgb kStops[] = {0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C,
                                  0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725};
    constexpr int n = sizeof(kStops) / sizeof(kStops[0]);
    if (!(t > 0))
        t = 0; // also NaN
    t = std::min(t, 1.0) * (n - 1);
    const int i = std::min(static_cast<int>(t), n - 2);
    const double f = t - i;
    const QColor a = QColor::fromRgb(kStops[i]), b = QColor::fromRgb(kStops[i + 1]);
    // Rounded to 8 bits per channel so a colour survives the round trip through an interned QBrush.
    auto mix = [f](int x, int y) {
        return static_cast<int>(std::lround(x + (y - x) * f));
    };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

QColor unknown() {
    return QColor::fromRgb(0xC8C8C8);
}

QColor textOn(const QColor& fill) {
    // Relative luminance (sRGB approximation); the threshold favours black text on mid tones.
    const double lum = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return lum < 0.45 ? QColor(Qt::white) : QColor(Qt::black);
}

} // namespace palette

QColor NodeColoring::groupColor(const std::vector<NodeId>& members) const {
    QHash<QRgb, int> votes;
    QRgb best = palette::unknown().rgb();
    int bestVotes = 0;
    for (NodeId m : members) {
        const QRgb c = color(m).rgb();
        const int v = ++votes[c];
        if (v > bestVotes) {
            best = c;
            bestVotes = v;
        }
    }
    return QColor::fromRgb(best);
}

CategoryColoring::CategoryColoring(std::vector<int> categoryOfNode, QVector<QPair<QString, QColor>> legend,
                                   QString title)
    : category_(std::move(categoryOfNode))
    , legend_(std::move(legend))
    , title_(std::move(title)) {}

namespace {
QVector<QPair<QString, QColor>> withPalette(const QStringList& names) {
    QVector<QPair<QString, QColor>> out;
    for (int i = 0; i < names.size(); ++i)
        out.append({names[i], palette::categorical(i)});
    return out;
}
} // namespace

CategoryColoring::CategoryColoring(std::vector<int> categoryOfNode, const QStringList& names, QString title)
    : CategoryColoring(std::move(categoryOfNode), withPalette(names), std::move(title)) {}

QColor CategoryColoring::color(NodeId id) const {
    if (!id.valid() || id.value >= category_.size())
        return palette::unknown();
    const int c = category_[id.value];
    return c >= 0 && c < legend_.size() ? legend_[c].second : palette::unknown();
}

HeatColoring::HeatColoring(std::vector<double> value01, QString title, QString lowLabel, QString highLabel)
    : value_(std::move(value01))
    , title_(std::move(title))
    , low_(std::move(lowLabel))
    , high_(std::move(highLabel)) {}

QColor HeatColoring::color(NodeId id) const {
    if (!id.valid() || id.value >= value_.size() || std::isnan(value_[id.value]))
        return palette::unknown();
    return palette::heat(value_[id.value]);
}

QVector<QPair<QString, QColor>> HeatColoring::legend() const {
    return {{high_, palette::heat(1.0)},     {QString(), palette::heat(0.75)},
            {QString(), palette::heat(0.5)}, {QString(), palette::heat(0.25)},
            {low_, palette::heat(0.0)},      {QStringLiteral("n/a"), palette::unknown()}};
}

QColor HeatColoring::groupColor(const std::vector<NodeId>& members) const {
    double best = std::nan("");
    for (NodeId m : members)
        if (m.valid() && m.value < value_.size() && !std::isnan(value_[m.value]))
            best = std::isnan(best) ? value_[m.value] : std::max(best, value_[m.value]);
    return std::isnan(best) ? palette::unknown() : palette::heat(best);
}

namespace {
std::vector<int> categories(const Graph& graph) {
    std::vector<int> out(graph.nodes.size());
    for (const auto& n : graph.nodes)
        out[n.id.value] = static_cast<int>(opCategory(n.opType));
    return out;
}
} // namespace

OpCategoryColoring::OpCategoryColoring(const Graph& graph)
    : CategoryColoring(
          categories(graph),
          QStringList{opCategoryName(OpCategory::ConvLike), opCategoryName(OpCategory::Elementwise),
                      opCategoryName(OpCategory::DataMovement), opCategoryName(OpCategory::Other)},
          QStringLiteral("Op category")) {}

} // namespace bpu::ui
