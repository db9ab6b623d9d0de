// SPDX-License-Identifier: MIT
// Shared by the workbench GUI tests: a MainWindow with isolated settings, opening a model and waiting for
// async work, mouse input on a slider. The dump of every number the window shows is WorkbenchNumbers.h.
#pragma once

#include "TestPaths.h"
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

} // namespace fixture
