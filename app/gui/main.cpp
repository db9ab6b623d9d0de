// SPDX-License-Identifier: MIT
// bpuscope: the workbench GUI.
//   bpuscope [MODEL|PROJECT.bpuscope] [--target T] [--color-by MODE] [--edits FILE] [--select NODE]
//            [--chart KIND] [--screenshot OUT.png]
// With --screenshot it loads, applies the edits, selects a node (the top hotspot unless --select names one),
// renders the window (offscreen works) to OUT.png and exits.
#include "core/edit/EditList.h"
#include "core/model/Graph.h"
#include "core/util/PrintableText.h"
#include "core/util/ProcessAllocator.h"
#include "ui/charts/ChartsPanel.h"
#include "ui/graph/GraphView.h"
#include "ui/main/MainWindow.h"
#include "ui/session/SelectionHub.h"
#include "ui/session/SessionController.h"
#include "ui/whatif/ModelComparer.h"

#include <QTabWidget>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QTimer>
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

int main(int argc, char** argv) {
    bpu::configureProcessAllocator();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BpuScope"));
    QApplication::setApplicationName(QStringLiteral("BpuScope"));
    QApplication::setApplicationVersion(QStringLiteral(BPUSCOPE_VERSION));
    // The installed desktop entry and icon (packaging/linux): lets the desktop group the window with them.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.bpuscope.BpuScope"));
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.bpuscope.BpuScope")));

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
    QCommandLineOption compare(QStringLiteral("compare"),
                               QStringLiteral("Compare the model with another export B.onnx once loaded "
                                              "(File > Compare With...)"),
                               QStringLiteral("B.onnx"));
    parser.addOptions({target, colorBy, edits, select, chart, compare, shot});
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
            std::vector<std::string> notes; // a project given as an edit list: its kept edits are not read
            list = bpu::loadEditFile(parser.value(edits).toStdString(), &notes); // names the file and problem
            for (const auto& n : notes)
                std::fprintf(stderr, "bpuscope: note: %s\n", bpu::printable(n).c_str());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bpuscope: error: %s\n", bpu::printable(e.what()).c_str());
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
    if (parser.isSet(compare)) {
        // Once the model is there (and only the first time: later loads are the user's).
        auto once = std::make_shared<QMetaObject::Connection>();
        *once =
            QObject::connect(&w, &bpu::ui::MainWindow::loaded, &w, [&w, once, other = parser.value(compare)] {
                QObject::disconnect(*once);
                w.compareWith(other);
            });
    }
    if (!shotPath.isEmpty()) {
        // Shoot once everything asked of the window has landed: the model, the edits, the finding gains and
        // the graph layout (the job tracker's "shown" signal), and a comparison (its own worker: its
        // "updated" signal asks again). Not the inspector's curve: on a big model each of its points
        // re-estimates the whole model, so it is an extra that fills in when it lands, and the window is
        // painted without it.
        auto shoot = std::make_shared<std::function<void()>>();
        *shoot = [&w, shotPath, done = false, comparing = parser.isSet(compare)]() mutable {
            // An --edits list applies with the load, before its first snapshot.
            auto s = w.snapshot();
            if (done || !s || !s->findingsReady)
                return;
            if (comparing && (w.comparer()->isBusy() || !w.comparer()->comparison()))
                return;
            done = true;
            QTimer::singleShot(300, &w, [&w, shotPath] {
                const bool ok = w.grab().save(shotPath);
                std::fprintf(ok ? stdout : stderr, ok ? "wrote %s\n" : "bpuscope: error: %s: cannot write\n",
                             qPrintable(shotPath));
                QApplication::exit(ok ? 0 : 3);
            });
        };
        QObject::connect(&w, &bpu::ui::MainWindow::shown, &w, [shoot] { (*shoot)(); });
        QObject::connect(w.comparer(), &bpu::ui::ModelComparer::updated, &w, [shoot] { (*shoot)(); });
        // Likewise a comparison that fails (the other file cannot be read) never lands.
        QObject::connect(w.comparer(), &bpu::ui::ModelComparer::failed, &w, [](const QString& why) {
            std::fprintf(stderr, "bpuscope: error: %s\n", qPrintable(why));
            QApplication::exit(3);
        });
        QObject::connect(&w, &bpu::ui::MainWindow::loadFailed, &w, [](const QString& msg) {
            std::fprintf(stderr, "bpuscope: error: %s\n", bpu::printable(msg.toStdString()).c_str());
            QApplication::exit(3);
        });
        // A project whose edits no longer all apply opens with what fits (the interactive window says so in
        // its "Opened with changes" box): a screenshot of that is not what was asked for.
        QObject::connect(w.controller(), &bpu::ui::SessionController::loaded, &w,
                         [&w](const QString& model, const QStringList& notApplied, const QStringList&) {
                             if (notApplied.isEmpty())
                                 return;
                             // The project holds the edits: name it (a reload's would be the model).
                             const QString project = w.controller()->projectPath();
                             const QString path = project.isEmpty() ? model : project;
                             // One line, as every error: the edits that did not apply joined.
                             std::fprintf(
                                 stderr, "bpuscope: error: %s: %lld edit(s) could not be applied: %s\n",
                                 bpu::printable(path.toStdString()).c_str(),
                                 static_cast<long long>(notApplied.size()),
                                 bpu::printable(notApplied.join(QStringLiteral("; ")).toStdString()).c_str());
                             QApplication::exit(3);
                         });
        // A refused --edits list never lands in a snapshot: without this the poll above would wait forever.
        QObject::connect(&w, &bpu::ui::MainWindow::editRejected, &w,
                         [file = parser.value(edits)](const QString& why) {
                             std::fprintf(stderr, "bpuscope: error: %s: edit rejected: %s\n",
                                          bpu::printable(file.toStdString()).c_str(),
                                          bpu::printable(why.toStdString()).c_str());
                             QApplication::exit(3);
                         });
    }
    if (!args.isEmpty()) {
        // Opened from inside the event loop: a failure that asks the application to exit (--screenshot)
        // must find the loop running, or the request is lost and the process waits forever.
        QTimer::singleShot(0, &w, [&w, file = args.first()] {
            if (file.endsWith(QLatin1String(".bpuscope")))
                w.openProject(file);
            else
                w.openModel(file);
        });
    }
    return app.exec();
}
