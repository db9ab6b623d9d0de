// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Graph.h"

#include <QColor>
#include <QPair>
#include <QString>
#include <QVector>
#include <vector>

namespace bpu::ui {

/// Colour-blind-safe colours (ui/style/Palette.h: Okabe and Ito's categorical set and a viridis ramp).
namespace palette {
QColor categorical(int index);     ///< 8 distinct hues (Okabe-Ito), cycling
QColor heat(double t);             ///< viridis at t in [0, 1] (clamped)
QColor unknown();                  ///< neutral grey for "no value"
QColor textOn(const QColor& fill); ///< black or white, whichever reads better on `fill`
} // namespace palette

/// How graph nodes are coloured: one small strategy object per colour mode (op category, placement, padding
/// waste, intensity, latency share...). Implementations must be cheap to query from the GUI thread.
class NodeColoring {
public:
    virtual ~NodeColoring() = default;
    /// Fill colour of one node.
    virtual QColor color(NodeId id) const = 0;
    /// Heading of the legend ("Op category", "Placement", "Padding waste").
    virtual QString legendTitle() const = 0;
    /// Legend rows, top to bottom.
    virtual QVector<QPair<QString, QColor>> legend() const = 0;
    /// Fill of a collapsed group box; the default is the colour most of its members have.
    virtual QColor groupColor(const std::vector<NodeId>& members) const;
};

/// Colours by a category index per node (e.g. placement BPU / CPU / folded): `categoryOfNode[id]` indexes
/// `legend`; a missing node or an index out of range is drawn as palette::unknown().
class CategoryColoring : public NodeColoring {
public:
    CategoryColoring(std::vector<int> categoryOfNode, QVector<QPair<QString, QColor>> legend, QString title);
    /// Same, with colours taken from palette::categorical() in order.
    CategoryColoring(std::vector<int> categoryOfNode, const QStringList& names, QString title);
    QColor color(NodeId id) const override;
    QString legendTitle() const override { return title_; }
    QVector<QPair<QString, QColor>> legend() const override { return legend_; }

private:
    std::vector<int> category_;
    QVector<QPair<QString, QColor>> legend_;
    QString title_;
};

/// Placement categories (0 BPU, 1 CPU, 2 folded, any other: e.g. unknown op). A fused layer runs where its
/// members that run do: its folded members (a Conv+BN+Relu's BN and Relu) have no placement of their own,
/// and a vote among all members drew PP-OCR's Conv+BN+Relu grey as "folded" while its conv ran on the BPU
/// (issue 63). The graph view and the report's overview both colour by it.
class PlacementColoring : public CategoryColoring {
public:
    static constexpr int kFolded = 2;
    PlacementColoring(std::vector<int> categoryOfNode, QVector<QPair<QString, QColor>> legend, QString title);
    QColor groupColor(const std::vector<NodeId>& members) const override;

private:
    std::vector<int> category_;
};

/// Colours by a value in [0, 1] per node (padding waste ratio, latency share) on the viridis ramp; NaN or a
/// missing node is palette::unknown(). The legend shows five steps labelled with `format(value)`.
class HeatColoring : public NodeColoring {
public:
    HeatColoring(std::vector<double> value01, QString title, QString lowLabel = QStringLiteral("0%"),
                 QString highLabel = QStringLiteral("100%"));
    QColor color(NodeId id) const override;
    QString legendTitle() const override { return title_; }
    QVector<QPair<QString, QColor>> legend() const override;
    QColor groupColor(const std::vector<NodeId>& members) const override; ///< colour of the members' maximum

private:
    std::vector<double> value_;
    QString title_;
    QString low_;
    QString high_;
};

/// The default: conv-like, elementwise, data movement, other (see OpCategory.h).
class OpCategoryColoring : public CategoryColoring {
public:
    explicit OpCategoryColoring(const Graph& graph);
};

} // namespace bpu::ui
