// SPDX-License-Identifier: MIT
#include "NodeDetails.h"

#include "core/analysis/Alignment.h"
#include "core/analysis/DdrReason.h"
#include "core/cost/CostTerms.h"

#include <QLocale>

#include <cmath>

namespace bpu::ui {

namespace {

/// Rows of the tensor table and padding rules shown per tensor: the inspector is built on the GUI thread,
/// so its text is bounded whatever the node (100k outputs, a rank-100k input).
constexpr int kRulesShown = 8;
constexpr size_t kTensorsShown = 32;

QString esc(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}
QString num(int64_t v) {
    return QLocale::c().toString(static_cast<qlonglong>(v));
}

/// A profile parameter with its value; its source in the tooltip, "estimate" when the profile says so.
QString paramRef(const ParamValue& p) {
    return QStringLiteral("<span title=\"%1\"><code>%2</code>=%3%4</span>")
        .arg(esc(p.note), esc(p.key))
        .arg(p.value)
        .arg(p.estimate ? QStringLiteral(" (estimate)") : QString());
}

QString tensorRow(const Snapshot& s, TensorId id, const QString& role) {
    const Tensor& t = s.graph->tensor(id);
    const TensorAnalysis& ta = s.analysis->tensors[id.value];
    QString padded = QStringLiteral("-"), rules;
    if (ta.padded.applies) {
        // The same elision as TensorShape::toString(): a rank-100k input must not lay out 200 kB of text.
        padded = QString::fromStdString(TensorShape(ta.padded.dims).toString());
        int shown = 0, more = 0;
        for (const auto& r : dimPadRules(ta.padded, t.shape.dims, s.target->alignment)) {
            if (shown++ < kRulesShown)
                rules += esc(r) + QStringLiteral("<br>");
            else
                ++more;
        }
        if (more > 0)
            rules += QStringLiteral("... %1 more").arg(more);
        if (rules.isEmpty())
            rules = QStringLiteral("aligned (%1)").arg(QString::fromLatin1(padRuleName(ta.padded.rule)));
    }
    return QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>")
        .arg(role, esc(t.name), esc(t.shape.toString()), padded, rules,
             ta.padded.applies ? QString::number(ta.padded.wasteRatio() * 100, 'f', 1) + QLatin1Char('%')
                               : QString());
}

} // namespace

QString nodeDetailsHtml(const Snapshot& s, NodeId id) {
    if (!s.graph || !id.valid() || id.value >= s.graph->nodes.size())
        return QStringLiteral("<p>Select a node in the graph, the hotspots or the findings.</p>");
    const Graph& g = *s.graph;
    const Node& n = g.node(id);
    const NodeAnalysis& a = s.analysis->nodes[id.value];
    const NodeCost& c = s.cost.nodes[id.value];
    const TargetProfile& t = *s.target;
    QString h =
        QStringLiteral("<h3>%1</h3><p><b>%2</b>%3 &middot; class <code>%4</code> &middot; %5</p>")
            .arg(esc(n.name), esc(n.opType),
                 n.domain.empty() ? QString() : QStringLiteral(" (") + esc(n.domain) + QStringLiteral(")"),
                 esc(opClassName(a.opClass)), QString::fromLatin1(precisionName(a.precision)));
    h += QStringLiteral("<p><b>Placement: %1</b>%2 &mdash; %3</p>")
             .arg(QString::fromLatin1(placementName(a.placement)),
                  a.segment >= 0 ? QStringLiteral(" (segment %1)").arg(a.segment) : QString(),
                  esc(a.placementReason.str()));
    const FusedGroup* grp = s.analysis->group(a.fusionGroup);
    if (grp)
        h += QStringLiteral("<p><b>Fused group #%1:</b> %2</p>").arg(grp->id.value).arg(esc(grp->pattern));
    if (grp && grp->nodes.front() != id) {
        // One BPU layer: its time - the members' work and DDR traffic pipelined - is the head's (CostModel).
        const NodeId head = grp->nodes.front();
        const NodeCost& hc = s.cost.nodes[head.value];
        h += QStringLiteral(
                 "<p><b>Latency:</b> none of its own &mdash; it runs inside fused group #%1, one BPU "
                 "layer whose %2 us (%3% of the model) are on its head <i>%4</i>.</p>")
                 .arg(grp->id.value)
                 .arg(hc.latencyUs, 0, 'f', 2)
                 .arg(hc.share * 100, 0, 'f', 2)
                 .arg(esc(g.node(head).name));
    } else {
        h += QStringLiteral("<p><b>Latency:</b> %1 us (%2% of the model)%7: compute %3 us, memory %4 us, "
                            "fixed %5 us%6</p>")
                 .arg(c.latencyUs, 0, 'f', 2)
                 .arg(c.share * 100, 0, 'f', 2)
                 .arg(c.computeUs, 0, 'f', 2)
                 .arg(c.memoryUs, 0, 'f', 2)
                 .arg(c.fixedUs, 0, 'f', 2)
                 .arg(a.placement == Placement::BPU && !grp && a.memoryUs > c.memoryUs + 0.005
                          ? QStringLiteral(" (memory: what the pipeline does not hide of its %1 us DDR time)")
                                .arg(a.memoryUs, 0, 'f', 2)
                          : QString())
                 .arg(grp ? QStringLiteral(" for the whole fused group #%1 (%2 nodes, one BPU layer)")
                                .arg(grp->id.value)
                                .arg(grp->nodes.size())
                          : QString());
    }
    // Against the baseline, paired by name and per image (issue 63, NodeDeltas).
    if (s.deltas && id.value < s.deltas->size()) {
        if (s.deltas->kind(id) == NodeChangeKind::New)
            h += QStringLiteral("<p><b>Vs baseline:</b> new &mdash; the baseline has no node of this name "
                                "(an edit added it): no delta.</p>");
        else if (std::abs(s.deltas->deltaUs(id)) >= 0.005)
            h += QStringLiteral("<p><b>Vs baseline:</b> %1 us per image (%2 &rarr; %3 us per image)</p>")
                     .arg(s.deltas->deltaUs(id) > 0
                              ? QStringLiteral("+%1").arg(s.deltas->deltaUs(id), 0, 'f', 2)
                              : QString::number(s.deltas->deltaUs(id), 'f', 2))
                     .arg(s.deltas->baselineUs(id), 0, 'f', 2)
                     .arg(s.deltas->nowUs(id), 0, 'f', 2);
    }
    // What the layer moves through DDR and the residency rule that sends it there (LifetimePass): the
    // profile's sram_budget_bytes and stream_window_steps, named with their values.
    if (a.placement != Placement::CPU && (!grp || grp->nodes.front() == id)) {
        QStringList ddr;
        for (const DdrTensor& d : layerDdrTraffic(g, *s.analysis, t, id))
            ddr << QStringLiteral("<i>%1</i> (%2 bytes): %3")
                       .arg(esc(g.tensor(d.tensor).name))
                       .arg(s.analysis->tensors[d.tensor.value].paddedBytes)
                       .arg(esc(d.reason));
        if (!ddr.isEmpty())
            h += QStringLiteral("<p><b>Through DDR:</b> %1</p>").arg(ddr.join(QStringLiteral("; ")));
    }
    // MACs per DDR byte means nothing for a vector/LUT op (no MACs) or a node whose tensors all stay in SRAM;
    // say what bounds it instead of printing 0 or MACs/1.
    QString intensity;
    if (a.macs == 0)
        intensity = QStringLiteral("n/a (no MACs: its ops run on the vector unit, "
                                   "<i>vector_elements_per_cycle</i>)");
    else if (a.ddrBytes == 0)
        intensity = QStringLiteral("n/a (no DDR bytes: its tensors stay in SRAM)");
    else
        intensity = QStringLiteral("%1 MACs/DDR byte (ridge %2)")
                        .arg(a.intensity, 0, 'f', 1)
                        .arg(s.analysis->ridgeIntensity, 0, 'f', 0);
    const QString bound =
        a.bound == Bound::None
            ? (grp ? QStringLiteral("no BPU time of its own (in fused group #%1)").arg(grp->id.value)
                   : QStringLiteral("no BPU time"))
            : QString::fromLatin1(boundName(a.bound)) + (a.bound == Bound::Compute && a.macs == 0
                                                             ? QStringLiteral("-bound (vector unit)")
                                                             : QStringLiteral("-bound"));
    h += QStringLiteral(
             "<p><b>MACs:</b> %1 (padded %2) &middot; <b>ops:</b> %3<br><b>Bytes:</b> in %4, out %5, "
             "weights %6, DDR %7<br><b>Intensity:</b> %8 &middot; <b>%9</b></p>")
             .arg(num(a.macs), num(a.paddedMacs), num(a.ops), num(a.inputBytes), num(a.outputBytes),
                  num(a.weightBytes), num(a.ddrBytes))
             .arg(intensity, bound);
    h += QStringLiteral(
        "<table border='1' cellspacing='0' cellpadding='3'><tr><th></th><th>tensor</th><th>shape</th>"
        "<th>padded</th><th>rule</th><th>waste</th></tr>");
    auto tensorRows = [&](const std::vector<TensorId>& ts, const char* role) {
        for (size_t i = 0; i < ts.size() && i < kTensorsShown; ++i)
            if (ts[i].valid())
                h += tensorRow(s, ts[i], QStringLiteral("%1 %2").arg(QLatin1String(role)).arg(i));
        if (ts.size() > kTensorsShown)
            h += QStringLiteral("<tr><td colspan='6'>... %1 more %2s</td></tr>")
                     .arg(ts.size() - kTensorsShown)
                     .arg(QLatin1String(role == std::string("in") ? "input" : "output"));
    };
    tensorRows(n.inputs, "in");
    tensorRows(n.outputs, "out");
    h += QStringLiteral("</table>");
    const auto names = n.attributeNames();
    if (!names.empty()) {
        h += QStringLiteral("<p><b>Attributes:</b> ");
        for (const auto& k : names)
            h += esc(k) + QStringLiteral("=") + esc(n.attributeText(k)) + QStringLiteral("; ");
        h += QStringLiteral("</p>");
    }
    QString fnd;
    for (const auto& f : s.analysis->findings)
        if (std::find(f.nodes.begin(), f.nodes.end(), id) != f.nodes.end())
            fnd +=
                QStringLiteral("<li>[%1] %2</li>").arg(QString::fromLatin1(ruleName(f.rule)), esc(f.title));
    if (!fnd.isEmpty())
        h += QStringLiteral("<p><b>Findings naming this node:</b></p><ul>%1</ul>").arg(fnd);
    // How the numbers were made: the cost engine's own terms (core/cost/CostTerms.h), with the profile
    // parameters they read and their sources; nothing here restates a formula.
    h += QStringLiteral("<p><b>How these numbers are made</b></p><table cellspacing='0' cellpadding='2'>");
    for (const FormulaTerm& term : nodeCostTerms(g, *s.analysis, s.cost, t, id)) {
        QStringList inputs, params;
        for (const auto& [name, value] : term.inputs)
            inputs << QStringLiteral("%1 = %2").arg(esc(name), QLocale::c().toString(value, 'g', 6));
        for (const ParamValue& p : term.params)
            params << paramRef(p);
        h += QStringLiteral("<tr><td valign='top'><b>%1</b></td><td valign='top' align='right'>%2 us</td>"
                            "<td>= %3%4%5</td></tr>")
                 .arg(esc(term.name))
                 .arg(term.us, 0, 'f', 2)
                 .arg(esc(term.formula))
                 .arg(inputs.isEmpty()
                          ? QString()
                          : QStringLiteral("<br>&nbsp;&nbsp;") + inputs.join(QStringLiteral(", ")))
                 .arg(params.isEmpty()
                          ? QString()
                          : QStringLiteral("<br>&nbsp;&nbsp;") + params.join(QStringLiteral(", ")));
    }
    h += QStringLiteral("</table>");
    // The padding units, as the padding pass applied them to this node's output (Alignment.h).
    if (!n.outputs.empty() && n.outputs[0].valid()) {
        const PaddedShape& p = s.analysis->tensors[n.outputs[0].value].padded;
        const size_t rank = g.tensor(n.outputs[0]).shape.rank();
        QStringList units;
        for (size_t d = 0; p.applies && d < rank; ++d) {
            const DimAlignment a = dimAlignment(p.rule, rank, d, t.alignment);
            if (a.unit > 1)
                units << QStringLiteral("%1&rarr;%2%3 (%4)")
                             .arg(QString::fromLatin1(a.dimName))
                             .arg(a.powerOfTwo ? QStringLiteral("pow2/") : QString())
                             .arg(a.unit)
                             .arg(paramRef(paramValue(t, a.param)));
        }
        if (!units.isEmpty())
            h += QStringLiteral("<p><b>Padding</b> (%1): %2</p>")
                     .arg(QString::fromLatin1(padRuleName(p.rule)), units.join(QStringLiteral(", ")));
    }
    return h;
}

} // namespace bpu::ui
