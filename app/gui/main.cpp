// SPDX-License-Identifier: MIT
// bpuscope: the workbench GUI.
//   bpuscope [MODEL|PROJECT.bpuscope] [--target T] [--color-by MODE] [--edits FILE] [--select NODE]
//            [--chart KIND] [--screenshot OUT.png]
// With --screenshot it loads, applies the edits, selects a node (the top hotspot unless --select names one),
// renders the window (offscreen works) to OUT.png and exits.
#include "core/model/Graph.h"
#include "core/edit/EditList.h"
#include "ui/charts/ChartsPanel.h"
#include "ui/graph/GraphView.h"
#include "ui/main/MainWindow.h"
#include "ui/session/SelectionHub.h"

#include <QTabWidget>

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QFileInfo>
#include <QTimer>
#include <cstdio>
#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BpuScope"));
    QApplication::setApplicationName(QStringLiteral("BpuScope"));
    QApplication::setApplicationVersion(QStringLiteral(BPUSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Profile ONNX models for the Horizon S100 BPU"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"),
                                 QStringLiteral("ONNX file or .bpuscope project to open"));
    QCommandLineOption target(QStringLiteral("target"), QStringLiteral("s100, s100p or a profile .json"),
                              QStringLiteral("T"), QStringLiteral("s100"));
    QCommandLineOption colorBy(QStringLiteral("color-by"),
                               QStringLiteral("placement|padding|intensity|latency|delta"),
                               QStringLiteral("MODE"));
    QCommandLineOption edits(QStringLiteral("edits"), QStringLiteral("Apply a what-if edit file"),
                             QStringLiteral("FILE"));
    QCommandLineOption shot(QStringLiteral("screenshot"),
                            QStringLiteral("Render the window to OUT.png and exit"),
                            QStringLiteral("OUT.png"));
    QCommandLineOption select(
        QStringLiteral("select"),
        QStringLiteral("Select this node once loaded (default with --screenshot: the top "
                       "hotspot)"),
        QStringLiteral("NODE"));
    QCommandLineOption chart(QStringLiteral("chart"),
                             QStringLiteral("Chart tab to show: latency|roofline|padding|ops"),
                             QStringLiteral("KIND"));
    parser.addOptions({target, colorBy, edits, select, chart, shot});
    parser.process(app);

    bpu::ui::MainWindow w;
    w.setTarget(parser.value(target));
    if (parser.isSet(colorBy)) {
        bpu::ui::ColorMode m;
        if (!bpu::ui::parseColorMode(parser.value(colorBy), &m)) {
            std::fprintf(stderr, "bpuscope: usage error: --color-by must be placement, padding, intensity, "
                                 "latency or delta\n");
            return 2;
        }
        w.setColorMode(m);
    }
    if (parser.isSet(chart)) {
        const QStringList kinds{QStringLiteral("latency"), QStringLiteral("roofline"),
                                QStringLiteral("padding"), QStringLiteral("ops")};
        const int i = kinds.indexOf(parser.value(chart));
        if (i < 0) {
            std::fprintf(stderr,
                         "bpuscope: usage error: --chart must be latency, roofline, padding or ops\n");
            return 2;
        }
        w.charts()->tabs()->setCurrentIndex(i);
    }
    if (parser.isSet(edits)) {
        bpu::EditList list;
        try {
            list = bpu::loadEditFile(parser.value(edits).toStdString()); // names the file and the problem
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bpuscope: error: %s\n", e.what());
            return 3;
        }
        w.applyEditList(std::move(list), QFileInfo(parser.value(edits)).fileName());
    }
    w.show();
    const QStringList args = parser.positionalArguments();
    const QString shotPath = parser.value(shot);
    if (parser.isSet(select) || !shotPath.isEmpty()) {
        // Select once the model is there, so the inspector never starts empty in a screenshot.
        QObject::connect(&w, &bpu::ui::MainWindow::loaded, &w, [&w, name = parser.value(select)] {
            const auto s = w.snapshot();
            const bpu::NodeId id = name.isEmpty() ? bpu::NodeId{} : s->graph->findNode(name.toStdString());
            if (!name.isEmpty() && !id.valid())
                std::fprintf(stderr, "bpuscope: warning: --select: no node named '%s'\n", qPrintable(name));
            if (id.valid())
                w.selection()->select(id, &w);
            else
                w.selectTopHotspot();
        });
    }
    if (!shotPath.isEmpty()) {
        // Shoot once everything asked of the window has landed: the model, the edits, the finding gains, the
        // graph layout and the inspector's curve (the job tracker's one "settled" signal).
        QObject::connect(&w, &bpu::ui::MainWindow::settled, &w,
                         [&w, shotPath, done = false]() mutable {
                             // An --edits list applies with the load, before its first snapshot.
                             auto s = w.snapshot();
                             if (done || !s || !s->findingsReady)
                                 return;
                             done = true;
                             QTimer::singleShot(300, &w, [&w, shotPath] {
                                 const bool ok = w.grab().save(shotPath);
                                 std::fprintf(ok ? stdout : stderr,
                                              ok ? "wrote %s\n" : "bpuscope: error: %s: cannot write\n",
                                              qPrintable(shotPath));
                                 QApplication::exit(ok ? 0 : 3);
                             });
                         });
        QObject::connect(&w, &bpu::ui::MainWindow::loadFailed, &w, [](const QString& msg) {
            std::fprintf(stderr, "bpuscope: error: %s\n", qPrintable(msg));
            QApplication::exit(3);
        });
        // A refused --edits list never lands in a snapshot: without this the poll above would wait forever.
        QObject::connect(&w, &bpu::ui::MainWindow::editRejected, &w,
                         [file = parser.value(edits)](const QString& why) {
                             std::fprintf(stderr, "bpuscope: error: %s: edit rejected: %s\n",
                                          qPrintable(file), qPrintable(why));
                             QApplication::exit(3);
                         });
    }
    if (!args.isEmpty()) {
        if (args.first().endsWith(QLatin1String(".bpuscope")))
            w.openProject(args.first());
        else
            w.openModel(args.first());
    }
    return app.exec();
}
