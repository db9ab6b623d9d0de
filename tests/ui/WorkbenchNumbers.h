// SPDX-License-Identifier: MIT
// Every number the workbench shows, as text, for tests that compare two states of it. Apart from
// WorkbenchFixture.h because it reads the analysis: the tests that do not include AnalysisResult.h through
// it.
#pragma once

#include "WorkbenchFixture.h"
#include "core/analysis/AnalysisResult.h"

namespace fixture {

inline QString num(double v) {
    return QString::number(v, 'g', 17);
}

/// Every number the window shows for the current snapshot, one "what=value" line each: the estimate, every
/// node's cost and analysis, the summary, the findings with their gains, the status bar and the hotspot
/// table's cells. Two states compare equal only if all of it is identical.
inline QStringList numbers(const bpu::ui::MainWindow& w) {
    QStringList out;
    const auto s = w.snapshot();
    if (!s)
        return out;
    const auto& c = s->cost;
    out << QStringLiteral("total=%1 latency=%2 fps=%3 perImage=%4 batch=%5")
               .arg(num(c.totalUs), num(c.latencyMs), num(c.fps), num(c.perImageMs))
               .arg(c.batch);
    out << QStringLiteral("bpu=%1 cpu=%2 qdq=%3 transitions=%4 runtime=%5 rows=%6")
               .arg(num(c.bpuUs), num(c.cpuUs), num(c.qdqUs), num(c.transitionUs), num(c.runtimeUs))
               .arg(c.rows.size());
    for (size_t i = 0; i < c.nodes.size(); ++i) {
        const auto& n = c.nodes[i];
        const auto& a = s->analysis->nodes[i];
        out << QStringLiteral(
                   "node %1 %2: us=%3 compute=%4 memory=%5 fixed=%6 precision=%7 share=%8 macs=%9 ddr=%10 "
                   "intensity=%11 placement=%12")
                   .arg(i)
                   .arg(QString::fromStdString(s->graph->nodes[i].name), num(n.latencyUs), num(n.computeUs),
                        num(n.memoryUs), num(n.fixedUs), QString::fromLatin1(bpu::precisionName(a.precision)),
                        num(n.share))
                   .arg(a.macs)
                   .arg(a.ddrBytes)
                   .arg(num(a.intensity))
                   .arg(int(a.placement));
    }
    for (size_t i = 0; i < s->analysis->tensors.size(); ++i)
        out << QStringLiteral("tensor %1: shape=%2 waste=%3")
                   .arg(i)
                   .arg(QString::fromStdString(s->graph->tensors[i].shape.toString()))
                   .arg(s->analysis->tensors[i].padded.wasteBytes);
    const auto& m = s->analysis->summary;
    out << QStringLiteral("summary bpu=%1 cpu=%2 folded=%3 segments=%4 qdqNodes=%5 qdqPasses=%6 qdqElems=%7 "
                          "waste=%8 wasteRatio=%9 fused=%10 missed=%11 unknown=%12")
               .arg(m.bpuNodes)
               .arg(m.cpuNodes)
               .arg(m.foldedNodes)
               .arg(m.bpuSegments)
               .arg(m.qdqNodes)
               .arg(m.qdqPasses)
               .arg(m.qdqElements)
               .arg(m.paddingWasteBytes)
               .arg(num(m.paddingWasteRatio))
               .arg(m.fusedGroups)
               .arg(m.missedFusions)
               .arg(m.unknownOps);
    for (const auto& f : s->analysis->findings)
        out << QStringLiteral("finding %1 %2 gain=%3")
                   .arg(QString::fromLatin1(bpu::ruleName(f.rule)), QString::fromStdString(f.title),
                        f.estimatedGainMs ? num(*f.estimatedGainMs) : QStringLiteral("none"));
    // The status bar's whole texts (its tooltips): what a label shows of them depends on the window's width
    // at that moment (a progress bar shown during a load narrows it), not on the state.
    out << QStringLiteral("status: ") + w.estimateLabel()->toolTip() + w.breakdownLabel()->toolTip() +
               w.deltaLabel()->text();
    const bpu::ui::HotspotModel* hm = w.hotspots()->model();
    for (int r = 0; r < hm->rowCount(); ++r) {
        QStringList cells;
        for (int col = 0; col < hm->columnCount(); ++col)
            cells << hm->data(hm->index(r, col)).toString();
        out << QStringLiteral("hotspot ") + cells.join(QLatin1Char('|'));
    }
    return out;
}

} // namespace fixture
