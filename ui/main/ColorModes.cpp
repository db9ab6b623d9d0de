// SPDX-License-Identifier: MIT
#include "ColorModes.h"

#include "core/analysis/AnalysisResult.h"
#include "core/compare/ModelComparison.h"

#include "ui/graph/NodeColoring.h"
#include "ui/style/Palette.h"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <limits>

namespace bpu::ui {

namespace {

// Placement colours (ui/style, Okabe-Ito): BPU blue, CPU vermillion, folded light grey, unknown op yellow.
const QColor kBpu = style::bpu(), kCpu = style::cpu(), kFolded = style::folded(),
             kUnknown = style::unknownOp();
// Bound colours are the roofline chart's: the graph and the charts dock beside it agree.
const QColor kCompute = style::computeBound(), kMemory = style::memoryBound();

/// Compute- vs memory-bound, shaded by how far from the ridge the node sits.
class BoundColoring : public NodeColoring {
public:
    BoundColoring(const Snapshot& s)
        : ridge_(s.analysis->ridgeIntensity) {
        for (const auto& a : s.analysis->nodes) {
            bound_.push_back(a.bound);
            intensity_.push_back(a.intensity);
        }
    }
    QColor color(NodeId id) const override {
        if (id.value >= bound_.size() || bound_[id.value] == Bound::None)
            return palette::unknown();
        const double decades =
            std::fabs(std::log10(std::max(intensity_[id.value], 1e-3) / std::max(ridge_, 1e-3)));
        // Within a decade of the ridge the shade lightens: those nodes sit near the balance point.
        const int lighten = 100 + int(std::max(0.0, 1.0 - decades) * 60);
        return (bound_[id.value] == Bound::Compute ? kCompute : kMemory).lighter(lighten);
    }
    QString legendTitle() const override {
        return QObject::tr("Bound (ridge %1 MACs/DDR byte)").arg(ridge_, 0, 'f', 0);
    }
    QVector<QPair<QString, QColor>> legend() const override {
        return {{QObject::tr("compute-bound"), kCompute},
                {QObject::tr("memory-bound"), kMemory},
                {QObject::tr("near the ridge (lighter)"), kMemory.lighter(160)},
                {QObject::tr("no BPU work"), palette::unknown()}};
    }

private:
    double ridge_;
    std::vector<Bound> bound_;
    std::vector<double> intensity_;
};

/// Latency change against a reference: green faster, red slower, grey unchanged, and a colour of its own for
/// a node the reference has no counterpart for (issue 63: a new node is never a delta).
class DeltaColoring : public NodeColoring {
public:
    /// `delta` per node in microseconds (current - reference), NaN where the reference has no counterpart;
    /// `title` names the reference in the legend, `unpairedLabel` and `unpairedColor` the NaN nodes.
    DeltaColoring(std::vector<double> delta, QString title, QString unpairedLabel, QColor unpairedColor)
        : delta_(std::move(delta))
        , title_(std::move(title))
        , unpairedLabel_(std::move(unpairedLabel))
        , unpairedColor_(unpairedColor) {
        double maxAbs = 0;
        for (double d : delta_)
            if (!std::isnan(d))
                maxAbs = std::max(maxAbs, std::fabs(d));
        scale_ = maxAbs > 0 ? maxAbs : 1;
    }
    /// Per node, paired by name and per image (NodeDeltas); NaN for a new node.
    static std::vector<double> againstBaseline(const Snapshot& s) {
        std::vector<double> d(s.cost.nodes.size(), 0.0);
        if (!s.deltas)
            return d;
        for (size_t i = 0; i < d.size(); ++i) {
            const NodeId id{static_cast<uint32_t>(i)};
            d[i] = s.deltas->kind(id) == NodeChangeKind::New ? std::numeric_limits<double>::quiet_NaN()
                                                             : s.deltas->deltaUs(id);
        }
        return d;
    }
    QColor color(NodeId id) const override {
        return colorOf(id.value < delta_.size() ? delta_[id.value] : 0);
    }
    /// A fused group runs as one layer: its colour is the change of its members that have a counterpart (a
    /// new Relu fused after a kept conv carries no time of its own); new only when none has one.
    QColor groupColor(const std::vector<NodeId>& members) const override {
        double sum = 0;
        bool paired = false;
        for (NodeId m : members) {
            const double d = m.value < delta_.size() ? delta_[m.value] : 0;
            if (std::isnan(d))
                continue;
            sum += d;
            paired = true;
        }
        return colorOf(paired ? sum : std::numeric_limits<double>::quiet_NaN());
    }
    QColor colorOf(double d) const {
        if (std::isnan(d))
            return unpairedColor_;
        if (std::fabs(d) < 1e-3)
            return style::unchanged();
        // sqrt spreads the small changes (one edited layer) that a large one elsewhere (a removed Q/DQ pass)
        // would otherwise wash out; any change is at least 45% tinted, so it never reads as unchanged.
        const double t = std::sqrt(std::min(1.0, std::fabs(d) / scale_));
        const QColor end = d < 0 ? style::better() : style::worse();
        const QColor base(0xf0, 0xf0, 0xf0);
        auto mix = [t](int a, int b) {
            return int(a + (b - a) * (0.45 + 0.55 * t));
        };
        return QColor(mix(base.red(), end.red()), mix(base.green(), end.green()),
                      mix(base.blue(), end.blue()));
    }
    QString legendTitle() const override { return title_; }
    QVector<QPair<QString, QColor>> legend() const override {
        return {{QObject::tr("faster"), style::better()},
                {QObject::tr("slower"), style::worse()},
                {QObject::tr("unchanged"), style::unchanged()},
                {unpairedLabel_, unpairedColor_}};
    }

private:
    std::vector<double> delta_;
    QString title_;
    QString unpairedLabel_;
    QColor unpairedColor_;
    double scale_ = 1;
};

} // namespace

QString colorModeName(ColorMode m) {
    switch (m) {
    case ColorMode::Placement:
        return QStringLiteral("placement");
    case ColorMode::Padding:
        return QStringLiteral("padding");
    case ColorMode::Intensity:
        return QStringLiteral("intensity");
    case ColorMode::Latency:
        return QStringLiteral("latency");
    case ColorMode::Delta:
        return QStringLiteral("delta");
    }
    return QStringLiteral("placement");
}

bool parseColorMode(const QString& s, ColorMode* out) {
    for (ColorMode m : {ColorMode::Placement, ColorMode::Padding, ColorMode::Intensity, ColorMode::Latency,
                        ColorMode::Delta})
        if (colorModeName(m) == s) {
            *out = m;
            return true;
        }
    return false;
}

std::shared_ptr<const NodeColoring> makeColoring(ColorMode mode, const Snapshot& s) {
    const auto& nodes = s.analysis->nodes;
    switch (mode) {
    case ColorMode::Placement: {
        std::vector<int> cat;
        for (const auto& a : nodes)
            cat.push_back(a.opClass == OpClass::Unknown && !a.placementOverridden ? 3
                          : a.placement == Placement::BPU                         ? 0
                          : a.placement == Placement::CPU                         ? 1
                                                          : PlacementColoring::kFolded);
        return std::make_shared<PlacementColoring>(
            cat,
            QVector<QPair<QString, QColor>>{{QObject::tr("BPU"), kBpu},
                                            {QObject::tr("CPU"), kCpu},
                                            {QObject::tr("folded"), kFolded},
                                            {QObject::tr("unknown op (CPU)"), kUnknown}},
            QObject::tr("Placement"));
    }
    case ColorMode::Padding: {
        std::vector<double> v;
        for (const auto& n : s.graph->nodes) {
            // No output the alignment rules apply to (folded, CPU, unknown shape): n/a, not "no waste".
            double w = std::numeric_limits<double>::quiet_NaN();
            for (TensorId o : n.outputs)
                if (o.valid() && s.analysis->tensors[o.value].padded.applies)
                    w = std::max(std::isnan(w) ? 0.0 : w, s.analysis->tensors[o.value].padded.wasteRatio());
            v.push_back(w);
        }
        return std::make_shared<HeatColoring>(v, QObject::tr("Padding waste (G4)"));
    }
    case ColorMode::Intensity:
        return std::make_shared<BoundColoring>(s);
    case ColorMode::Latency: {
        double maxShare = 0;
        for (const auto& c : s.cost.nodes)
            maxShare = std::max(maxShare, c.share);
        std::vector<double> v;
        for (const auto& c : s.cost.nodes)
            v.push_back(maxShare > 0 ? std::sqrt(c.share / maxShare) : 0); // sqrt spreads the long tail
        return std::make_shared<HeatColoring>(v, QObject::tr("Latency share (sqrt scale)"),
                                              QStringLiteral("0"),
                                              QStringLiteral("%1%").arg(maxShare * 100, 0, 'f', 1));
    }
    case ColorMode::Delta:
        return std::make_shared<DeltaColoring>(DeltaColoring::againstBaseline(s),
                                               s.deltas && s.deltas->perImage()
                                                   ? QObject::tr("Latency per image vs baseline")
                                                   : QObject::tr("Latency vs baseline"),
                                               QObject::tr("new (not in the baseline)"), style::added());
    }
    return nullptr;
}

std::shared_ptr<const NodeColoring> makeComparisonColoring(const Comparison& c, const Snapshot& s,
                                                           const QString& otherName) {
    // The other model against this one (B - A, A being the open model): slower there is red.
    return std::make_shared<DeltaColoring>(c.latencyDeltaByNodeOfA(s.graph->nodes.size()),
                                           QObject::tr("Latency in %1 vs here").arg(otherName),
                                           QObject::tr("no match in %1").arg(otherName), style::unmatched());
}

} // namespace bpu::ui
