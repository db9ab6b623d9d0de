// SPDX-License-Identifier: MIT
// bpuscope: the workbench GUI. `bpuscope MODEL --screenshot OUT.png` renders offscreen and exits.
#include "ui/main/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BpuScope"));
    QApplication::setApplicationName(QStringLiteral("BpuScope"));
    QApplication::setApplicationVersion(QStringLiteral(BPUSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Profile ONNX models for the Horizon S100 BPU"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("ONNX file to open"));
    QCommandLineOption shot(QStringLiteral("screenshot"), QStringLiteral("Render the window to OUT.png and exit"),
                            QStringLiteral("OUT.png"));
    parser.addOption(shot);
    parser.process(app);

    bpu::ui::MainWindow w;
    w.show();
    const QStringList args = parser.positionalArguments();
    const QString shotPath = parser.value(shot);
    if (!shotPath.isEmpty()) {
        auto grab = [&w, shotPath] {
            QTimer::singleShot(200, &w, [&w, shotPath] {
                bool ok = w.grab().save(shotPath);
                std::fprintf(ok ? stdout : stderr, ok ? "wrote %s\n" : "bpuscope: error: %s: cannot write\n",
                             qPrintable(shotPath));
                QApplication::exit(ok ? 0 : 3);
            });
        };
        QObject::connect(&w, &bpu::ui::MainWindow::loaded, &w, grab);
        QObject::connect(&w, &bpu::ui::MainWindow::loadFailed, &w, [](const QString& msg) {
            std::fprintf(stderr, "bpuscope: error: %s\n", qPrintable(msg));
            QApplication::exit(3);
        });
        if (args.isEmpty())
            grab();
    }
    if (!args.isEmpty())
        w.openModel(args.first());
    return app.exec();
}
