// SPDX-License-Identifier: MIT
// The GUI binary's headless hook (`bpuscope MODEL [--edits F] --screenshot OUT.png`, offscreen), run as a
// user or a docs script runs it: a good run writes a real picture and exits 0; every kind of bad input exits
// with its code and a message naming the problem, and never waits forever on a dialog nobody can click.
#include "TestPaths.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

QString sample(const char* file) {
    return QString::fromStdString(bpu::test::samplesDir() + "/") + QLatin1String(file);
}

struct Run {
    int exitCode = -1;
    QString out, err;
};

} // namespace

class TestGuiHeadless : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString writeFile(const QString& name, const QByteArray& text) {
        QFile f(dir_.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return f.fileName();
    }

    /// Runs the GUI offscreen; a run that does not end in 5 minutes is a hang (no speed is asserted).
    Run run(const QStringList& args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QString::fromStdString(bpu::test::guiPath()), args);
        Run r;
        if (!p.waitForFinished(300000)) {
            p.kill();
            p.waitForFinished();
            r.err = QStringLiteral("hung: ") + args.join(QLatin1Char(' '));
            return r;
        }
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

private slots:
    void screenshotWithEdits();
    void badInputExitsWithAMessage_data();
    void badInputExitsWithAMessage();
    void modelIsNeverWritten();
};

void TestGuiHeadless::screenshotWithEdits() {
    const QString edits = writeFile(QStringLiteral("fuse.json"), R"({"edits": [{"op": "fuse_all"}]})");
    const QString shot = dir_.filePath(QStringLiteral("yolov8n.png"));
    const Run r = run({sample("yolov8n.onnx"), QStringLiteral("--edits"), edits, QStringLiteral("--color-by"),
                       QStringLiteral("padding"), QStringLiteral("--screenshot"), shot});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("wrote ") + shot), qPrintable(r.out));
    QImage img(shot);
    QVERIFY(!img.isNull());
    QVERIFY(img.width() >= 800 && img.height() >= 600);
    // A window with a graph, tables and a plot has many colours; a blank or error-only grab has a handful.
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 7)
        for (int x = 0; x < img.width(); x += 7)
            colours.insert(img.pixel(x, y));
    QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
}

void TestGuiHeadless::badInputExitsWithAMessage_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("messageParts");
    const QString shot = dir_.filePath(QStringLiteral("never.png"));
    const QString batch =
        writeFile(QStringLiteral("batch.json"), R"({"edits": [{"op": "set_batch", "batch": 8}]})");
    const QString broken = writeFile(QStringLiteral("broken.json"), R"({"edits": [{"op": )");
    const QString unknownNode =
        writeFile(QStringLiteral("unknown.json"), R"({"edits": [{"op": "fuse", "node": "no_such_conv"}]})");
    // ssdlite's input is one CHW image: the core refuses the batch edit, the GUI must exit, not wait.
    QTest::newRow("edit refused by the core")
        << QStringList{sample("ssdlite320_mobilenet_v3_large.onnx"), QStringLiteral("--edits"), batch,
                       QStringLiteral("--screenshot"), shot}
        << 3 << QStringList{QStringLiteral("batch.json: edit rejected"), QStringLiteral("one CHW image")};
    QTest::newRow("edit names an unknown node")
        << QStringList{sample("yolov8n.onnx"), QStringLiteral("--edits"), unknownNode,
                       QStringLiteral("--screenshot"), shot}
        << 3 << QStringList{QStringLiteral("edit rejected"), QStringLiteral("no node named 'no_such_conv'")};
    QTest::newRow("edit file is not JSON") << QStringList{sample("yolov8n.onnx"), QStringLiteral("--edits"),
                                                          broken, QStringLiteral("--screenshot"), shot}
                                           << 3 << QStringList{QStringLiteral("broken.json")};
    QTest::newRow("model missing") << QStringList{dir_.filePath(QStringLiteral("absent.onnx")),
                                                  QStringLiteral("--screenshot"), shot}
                                   << 3 << QStringList{QStringLiteral("absent.onnx")};
    // Files that are not what they claim: refused from their type, never read (a FIFO would block the
    // GUI, /dev/zero fill its memory), the window never shown waiting.
    const QString fifo = dir_.filePath(QStringLiteral("pipe"));
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    QTest::newRow("--edits FIFO") << QStringList{sample("yolov8n.onnx"), QStringLiteral("--edits"), fifo,
                                                 QStringLiteral("--screenshot"), shot}
                                  << 3 << QStringList{fifo + QStringLiteral(": is a FIFO (named pipe)")};
    QTest::newRow("--edits /dev/zero")
        << QStringList{sample("yolov8n.onnx"), QStringLiteral("--edits"), QStringLiteral("/dev/zero"),
                       QStringLiteral("--screenshot"), shot}
        << 3 << QStringList{QStringLiteral("/dev/zero: is a character device")};
    // A project is hashed and opened: its model must be checked first.
    const QString devProject = writeFile(QStringLiteral("dev.bpuscope"),
                                         R"({"schema": "bpuscope.project/1", "model": "/dev/zero"})");
    QTest::newRow("project model /dev/zero")
        << QStringList{devProject, QStringLiteral("--screenshot"), shot} << 3
        << QStringList{QStringLiteral("/dev/zero: is a character device, not an ONNX file")};
    const QString fifoProject =
        writeFile(QStringLiteral("fifo.bpuscope"), R"({"schema": "bpuscope.project/1", "model": "pipe"})");
    QTest::newRow("project model FIFO") << QStringList{fifoProject, QStringLiteral("--screenshot"), shot} << 3
                                        << QStringList{QStringLiteral("pipe: is a FIFO (named pipe)")};
    // A project that does not parse: the error used to be reported before the event loop ran, so the exit
    // request was lost and the process waited forever.
    const QString brokenProject = writeFile(QStringLiteral("broken.bpuscope"), R"({"schema": )");
    QTest::newRow("project not JSON") << QStringList{brokenProject, QStringLiteral("--screenshot"), shot} << 3
                                      << QStringList{QStringLiteral("broken.bpuscope: not valid JSON")};
    // A project whose edit no longer applies opens with what fits in the window; a screenshot of that is
    // not what was asked for (issue 42).
    const QString staleProject = writeFile(
        QStringLiteral("stale.bpuscope"),
        QStringLiteral(
            R"({"schema": "bpuscope.project/1", "model": "%1", "edits": [{"op": "fuse", "node": "no_such_conv"}]})")
            .arg(sample("yolov8n.onnx"))
            .toUtf8());
    QTest::newRow("project edit not applied")
        << QStringList{staleProject, QStringLiteral("--screenshot"), shot} << 3
        << QStringList{QStringLiteral("stale.bpuscope: 1 edit(s) could not be applied: "),
                       QStringLiteral("no_such_conv")};
    QTest::newRow("bad colour mode") << QStringList{sample("yolov8n.onnx"), QStringLiteral("--color-by"),
                                                    QStringLiteral("rainbow"), QStringLiteral("--screenshot"),
                                                    shot}
                                     << 2 << QStringList{QStringLiteral("--color-by")};
}

// The model file is never written, whatever reads it: size, mtime and SHA-256 of a copy of a sample are
// the same after the CLI's analyze and report (PDF and Markdown), a refused attempt to write over it, and
// the GUI's --screenshot.
void TestGuiHeadless::modelIsNeverWritten() {
    const QString model = dir_.filePath(QStringLiteral("mobilenet_v2.onnx"));
    QVERIFY(QFile::copy(sample("mobilenet_v2.onnx"), model));
    auto state = [&model] {
        QFile f(model);
        f.open(QIODevice::ReadOnly);
        QCryptographicHash h(QCryptographicHash::Sha256);
        h.addData(&f);
        const QFileInfo info(model);
        return QStringList{QString::number(info.size()),
                           QString::number(info.lastModified().toMSecsSinceEpoch()),
                           QString::fromLatin1(h.result().toHex())};
    };
    const QStringList before = state();
    auto cli = [](const QStringList& args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QString::fromStdString(bpu::test::cliPath()), args);
        return p.waitForFinished(300000) && p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    };
    QCOMPARE(cli({QStringLiteral("analyze"), model, QStringLiteral("--json"),
                  dir_.filePath(QStringLiteral("a.json"))}),
             0);
    QCOMPARE(
        cli({QStringLiteral("report"), model, QStringLiteral("-o"), dir_.filePath(QStringLiteral("r.pdf"))}),
        0);
    QCOMPARE(
        cli({QStringLiteral("report"), model, QStringLiteral("-o"), dir_.filePath(QStringLiteral("r.md"))}),
        0);
    QCOMPARE(cli({QStringLiteral("report"), model, QStringLiteral("-o"), model, QStringLiteral("--format"),
                  QStringLiteral("md")}),
             3);
    const Run r = run({model, QStringLiteral("--screenshot"), dir_.filePath(QStringLiteral("shot.png"))});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QCOMPARE(state(), before);
}

void TestGuiHeadless::badInputExitsWithAMessage() {
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QStringList, messageParts);
    const Run r = run(args);
    QVERIFY2(r.exitCode == exitCode, qPrintable(QString::number(r.exitCode) + QLatin1Char(' ') + r.err));
    for (const QString& part : messageParts)
        QVERIFY2(r.err.contains(part), qPrintable(r.err));
    QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("never.png"))));
}

QTEST_GUILESS_MAIN(TestGuiHeadless)
#include "tst_gui_headless.moc"
