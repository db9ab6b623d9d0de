// SPDX-License-Identifier: MIT
#include "NodeColoring.h"

#include "OpCategory.h"
#include "ui/style/Palette.h"

#include <QHash>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace bpu::ui {

namespace palette {

QColor categorical(int index) {
    return style::categorical(index);
}
QColor heat(double t) {
    return style::heat(t);
}
QColor unknown() {
    return style::unknown();
}
QColor textOn(const QColor& fill) {
    return style::textOn(fill);
}

} // namespace palette

PlacementColoring::PlacementColoring(std::vector<int> categoryOfNode, QVector<QPair<QString, QColor>> legend,
                                     QString title)
    : CategoryColoring(categoryOfNode, std::move(legend), std::move(title))
    , category_(std::move(categoryOfNode)) {}

QColor PlacementColoring::groupColor(const std::vector<NodeId>& members) const {
    std::vector<NodeId> running;
    for (NodeId m : members)
        if (m.value < category_.size() && category_[m.value] != kFolded)
            running.push_back(m);
    return NodeColoring::groupColor(running.empty() ? members : running);
}

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
