// SPDX-License-Identifier: MIT
// The GUI binary's headless hook (`bpuscope MODEL [--edits F] --screenshot OUT.png`, offscreen), run as a
// user or a docs script runs it: a good run writes a real picture and exits 0; every kind of bad input exits
// with its code and a message naming the problem, and never waits forever on a dialog nobody can click.
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString sample(const char* file) {
    return QStringLiteral(BPUSCOPE_SAMPLES "/") + QLatin1String(file);
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
        p.start(QStringLiteral(BPUSCOPE_GUI), args);
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
    QTest::newRow("bad colour mode") << QStringList{sample("yolov8n.onnx"), QStringLiteral("--color-by"),
                                                    QStringLiteral("rainbow"), QStringLiteral("--screenshot"),
                                                    shot}
                                     << 2 << QStringList{QStringLiteral("--color-by")};
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
