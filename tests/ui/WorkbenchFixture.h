// SPDX-License-Identifier: MIT
// Shared by the workbench GUI tests: a MainWindow with isolated settings, opening a model and waiting for
// async work, mouse input on a slider, and a dump of every number the window shows for exact before/after
// comparisons.
#pragma once

#include "TestPaths.h"
#include "core/analysis/AnalysisResult.h"
#include "core/model/Graph.h"
#include "ui/graph/GraphView.h"
#include "ui/hotspots/HotspotModel.h"
#include "ui/hotspots/HotspotPanel.h"
#include "ui/main/MainWindow.h"
#include "ui/session/SessionController.h"

#include <QApplication>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QtTest>

#include <functional>

namespace fixture {

inline QString sample(const char* name) {
    return QString::fromStdString(bpu::test::samplesDir() + "/") + QLatin1String(name);
}

/// Settings (recent files, window layout) go to a throwaway test location, never the user's.
inline void isolateSettings() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("BpuScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("BpuScopeTests"));
}

/// True once the window shows a settled state: every background job finished (the job tracker's lanes are
/// idle: load, session, sweep, layout, export), a snapshot with finding gains, and `also` (when given) holds
/// for it.
inline bool waitSettled(bpu::ui::MainWindow& w, std::function<bool(const bpu::ui::Snapshot&)> also = {},
                        int timeoutMs = 60000) {
    return QTest::qWaitFor(
        [&] {
            const auto s = w.snapshot();
            return s && s->findingsReady && w.jobs()->isSettled() && (!also || also(*s));
        },
        timeoutMs);
}

/// Opens `path` and waits until it is loaded and settled (waitSettled). False when the user kept the open
/// model (openModel's prompt), the load did not end within two minutes or the window did not settle.
inline bool openAndSettle(bpu::ui::MainWindow& w, const QString& path) {
    QSignalSpy loaded(&w, &bpu::ui::MainWindow::loaded);
    if (!w.openModel(path))
        return false;
    return (!loaded.isEmpty() || loaded.wait(120000)) && waitSettled(w);
}

/// The slider's handle centre, from the style (what a user aims at).
inline QPoint handleCenter(QSlider* s) {
    QStyleOptionSlider opt;
    opt.initFrom(s);
    opt.orientation = s->orientation();
    opt.minimum = s->minimum();
    opt.maximum = s->maximum();
    opt.sliderPosition = s->sliderPosition();
    opt.sliderValue = s->value();
    opt.singleStep = s->singleStep();
    opt.pageStep = s->pageStep();
    opt.upsideDown = false;
    opt.direction = s->layoutDirection();
    opt.subControls = QStyle::SC_All;
    return s->style()->subControlRect(QStyle::CC_Slider, &opt, QStyle::SC_SliderHandle, s).center();
}

/// Sends `w` a mouse event at `pos` (its coordinates) with the left button as the one acting (none on a
/// move) and `buttons` held.
inline void sendMouse(QWidget* w, QEvent::Type type, const QPoint& pos, Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(pos), QPointF(w->mapToGlobal(pos)),
                  type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons, Qt::NoModifier);
    QApplication::sendEvent(w, &e);
}

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
