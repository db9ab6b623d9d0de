// SPDX-License-Identifier: MIT
#include "StatusText.h"

#include "core/analysis/AnalysisResult.h"
#include "ui/style/Palette.h"

#include <QCoreApplication>
#include <QStringList>
#include <cmath>

namespace bpu::ui {

namespace {

QString tr(const char* s) {
    return QCoreApplication::translate("StatusText", s);
}

// The compare panel's better/worse colours.
QString colored(const QString& text, bool better) {
    return QStringLiteral("<span style=\"color:%1\">%2</span>")
        .arg((better ? style::better() : style::worse()).name(), text);
}

QString signedNumber(double v, int decimals) {
    return (v > 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'f', decimals);
}

/// "CPU 3 -> 0" coloured, or nothing when the count did not change.
void countDelta(QStringList& out, const QString& name, int before, int after) {
    if (before != after)
        out << colored(QStringLiteral("%1 %2 \u2192 %3").arg(name).arg(before).arg(after), after < before);
}

} // namespace

QString estimateText(const Snapshot& s, bool withDeployment) {
    const auto& c = s.cost;
    // The three figures named after the vendor tool each compares with, then the deployment they assume.
    QString text =
        tr("<b>%1</b>: board, 1 thread <b>%2 ms</b>/image, <b>%3 FPS</b> (batch %4) | 2 threads %5 "
           "FPS | BPU (static) %6 ms%7")
            .arg(QString::fromStdString(s.target->name).toHtmlEscaped())
            .arg(c.perImageMs, 0, 'f', 3)
            .arg(c.fps, 0, 'f', 1)
            .arg(c.batch)
            .arg(c.fpsByThreads[1], 0, 'f', 1)
            .arg(c.bpuMs, 0, 'f', 3)
            // hbm_perf times one inference of the whole batch, the board figure above one image.
            .arg(c.batch > 1 ? tr("/inference of %1").arg(c.batch) : QString());
    if (withDeployment)
        text += QStringLiteral(" | ") +
                QString::fromStdString(describeDeployShort(s.deploy, *s.graph)).toHtmlEscaped();
    return text;
}

QString minimalEstimateText(const Snapshot& s) {
    return tr("<b>%1</b>: <b>%2 ms</b>/image, <b>%3 FPS</b>")
        .arg(QString::fromStdString(s.target->name).toHtmlEscaped())
        .arg(s.cost.perImageMs, 0, 'f', 3)
        .arg(s.cost.fps, 0, 'f', 1);
}

QString breakdownText(const Snapshot& s) {
    const auto& a = s.analysis->summary;
    return tr("| BPU %1, CPU %2, folded %3 | %4 segment(s) | Q/DQ %5 passes | padding waste %6%")
        .arg(a.bpuNodes)
        .arg(a.cpuNodes)
        .arg(a.foldedNodes)
        .arg(a.bpuSegments)
        .arg(a.qdqPasses)
        .arg(a.paddingWasteRatio * 100, 0, 'f', 1);
}

QString deltaText(const Snapshot& s) {
    const auto& c = s.cost;
    const auto& b = s.baseline;
    const auto& now = s.analysis->summary;
    const auto& was = *s.baselineSummary;
    QStringList parts;
    if (c.perImageMs != b.perImageMs && b.perImageMs > 0) {
        const double dMs = c.perImageMs - b.perImageMs;
        parts << colored(
            QStringLiteral("%1 ms (%2%)")
                .arg(signedNumber(dMs, 3), signedNumber((c.perImageMs / b.perImageMs - 1) * 100, 1)),
            dMs < 0);
    }
    if (c.fps != b.fps && b.fps > 0)
        parts << colored(tr("FPS %1%").arg(signedNumber((c.fps / b.fps - 1) * 100, 1)), c.fps > b.fps);
    countDelta(parts, tr("CPU"), was.cpuNodes, now.cpuNodes);
    countDelta(parts, tr("segments"), was.bpuSegments, now.bpuSegments);
    countDelta(parts, tr("Q/DQ"), was.qdqPasses, now.qdqPasses);
    if (std::fabs(now.paddingWasteRatio - was.paddingWasteRatio) >= 0.0005)
        parts << colored(tr("waste %1% \u2192 %2%")
                             .arg(was.paddingWasteRatio * 100, 0, 'f', 1)
                             .arg(now.paddingWasteRatio * 100, 0, 'f', 1),
                         now.paddingWasteRatio < was.paddingWasteRatio);
    // Issue 63: nodes an edit added or removed have no delta of their own; say how many, and what the
    // removed ones cost per image (the time a graph colouring cannot draw).
    if (s.deltas && !s.deltas->removed().empty())
        parts << colored(tr("%1 node(s) removed (%2 us/image)")
                             .arg(s.deltas->removed().size())
                             .arg(s.deltas->removedUs(), 0, 'f', 1),
                         true);
    if (s.deltas && s.deltas->newCount() > 0)
        parts << tr("%1 new").arg(s.deltas->newCount());
    if (parts.isEmpty())
        return {};
    return tr("vs baseline: ") + parts.join(QStringLiteral(", "));
}

} // namespace bpu::ui
