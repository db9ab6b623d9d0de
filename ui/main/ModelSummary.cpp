// SPDX-License-Identifier: MIT
#include "ModelSummary.h"

#include <QLocale>

namespace bpu::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString num(int64_t v) { return QLocale::c().toString(static_cast<qlonglong>(v)); }
} // namespace

QString summaryHtml(const LoadedModel& m) {
    const Graph& g = m.graph;
    QString h;
    h += QStringLiteral("<h2>%1</h2>").arg(q(g.path));
    h += QStringLiteral("<table cellspacing='4'>");
    auto row = [&h](const QString& k, const QString& v) {
        h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k, v);
    };
    row(QStringLiteral("Producer"), q(g.producerName + " " + g.producerVersion));
    row(QStringLiteral("IR version"), QString::number(g.irVersion));
    QString opsets;
    for (const auto& [d, v] : g.opsets)
        opsets += QStringLiteral("%1=%2 ").arg(q(d.empty() ? std::string("ai.onnx") : d)).arg(v);
    row(QStringLiteral("Opsets"), opsets);
    for (TensorId id : g.inputs)
        row(QStringLiteral("Input"), q(g.tensor(id).name + "  " + g.tensor(id).shape.toString()));
    for (TensorId id : g.outputs)
        row(QStringLiteral("Output"), q(g.tensor(id).name + "  " + g.tensor(id).shape.toString()));
    row(QStringLiteral("Nodes"), num(static_cast<int64_t>(g.nodes.size())));
    row(QStringLiteral("Parameters"), num(m.totals.params));
    row(QStringLiteral("MACs"), num(m.totals.macs) + QStringLiteral(" (1 MAC = one multiply-accumulate)"));
    row(QStringLiteral("Weight bytes"), num(m.totals.weightBytes));
    h += QStringLiteral("</table><h3>Operators</h3><p>");
    for (const auto& [op, n] : m.totals.opHistogram)
        h += QStringLiteral("%1&nbsp;&times;%2 &nbsp; ").arg(q(op)).arg(n);
    h += QStringLiteral("</p>");
    if (!g.warnings.empty()) {
        h += QStringLiteral("<h3>Warnings</h3><ul>");
        for (const auto& w : g.warnings)
            h += QStringLiteral("<li>%1</li>").arg(q(w));
        h += QStringLiteral("</ul>");
    }
    return h;
}

} // namespace bpu::ui
