// SPDX-License-Identifier: MIT
// The CLI against hostile files other than models (issue 15): edit lists and profiles that are FIFOs,
// devices or huge; outputs that name an input; a file whose bytes must not leak into the message;
// measurements that are not positive numbers; a batch past the edit's limit; names that would inject
// Markdown/HTML into a report. Each is a clear "bpuscope: error: <file>: <problem>" line and exit 3 (2 for
// usage), never a hang, a crash, a write to an input or a leak.
#include "CliRun.h"
#include "TestPaths.h"

#include <QCryptographicHash>
#include <QFile>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

using Run = clirun::Proc;

/// Runs the CLI; a run that does not end in two minutes is a hang (no speed is asserted).
Run cli(const QStringList& args) {
    return clirun::runCli(args, 120000);
}

QByteArray sha256(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

} // namespace

class TestBadCliInputs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString model_; ///< a copy of mobilenet_v2, so a wrongful write could only hurt the copy
    QString edits_;

    QString write(const QString& name, const QByteArray& bytes) {
        QFile f(dir_.filePath(name));
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        f.write(bytes);
        return f.fileName();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        model_ = dir_.filePath(QStringLiteral("model.onnx"));
        QVERIFY(QFile::copy(QString::fromStdString(bpu::test::samplesDir() + "/mobilenet_v2.onnx"), model_));
        edits_ = write(QStringLiteral("edits.json"), R"({"edits": [{"op": "fuse_all"}]})");
    }

    // Writing a report or JSON over the model (or another input) is refused before anything is written.
    void outputIsAnInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("victim");
        const QString m = model_, e = edits_;
        const QString link = dir_.filePath(QStringLiteral("hardlink.onnx"));
        QVERIFY(::link(m.toLocal8Bit().constData(), link.toLocal8Bit().constData()) == 0);
        QTest::newRow("analyze --json MODEL") << QStringList{"analyze", m, "--json", m} << m;
        QTest::newRow("analyze --csv MODEL") << QStringList{"analyze", m, "--csv", m} << m;
        QTest::newRow("report -o MODEL") << QStringList{"report", m, "-o", m, "--format", "md"} << m;
        QTest::newRow("info --json MODEL") << QStringList{"info", m, "--json", m} << m;
        QTest::newRow("a hard link to the model") << QStringList{"analyze", m, "--json", link} << m;
        QTest::newRow("--json EDITS") << QStringList{"analyze", m, "--edits", e, "--json", e} << e;
    }
    void outputIsAnInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, victim);
        const QByteArray before = sha256(victim);
        const qint64 size = QFileInfo(victim).size();
        const QDateTime mtime = QFileInfo(victim).lastModified();
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("is an input of this command"), r.err.constData());
        QVERIFY2(r.err.contains("refusing to overwrite it"), r.err.constData());
        QCOMPARE(sha256(victim), before);
        QCOMPARE(QFileInfo(victim).size(), size);
        QCOMPARE(QFileInfo(victim).lastModified(), mtime);
    }

    // --edits and --target that are not regular files are refused from their type, without a read (a
    // FIFO would block the reader forever, /dev/zero would fill memory).
    void notARegularFile_data() {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("problem");
        const QString fifo = dir_.filePath(QStringLiteral("pipe.json"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        // Sparse: 65 MiB to stat(), nothing written.
        const QString huge = dir_.filePath(QStringLiteral("huge.json"));
        { std::ofstream(huge.toStdString()) << "{"; }
        fs::resize_file(huge.toStdString(), (uintmax_t(65) << 20));
        QTest::newRow("--edits FIFO") << "--edits" << fifo << "is a FIFO (named pipe), not an edit file";
        QTest::newRow("--edits /dev/zero") << "--edits"
                                           << "/dev/zero"
                                           << "is a character device, not an edit file";
        QTest::newRow("--edits folder") << "--edits" << dir_.path() << "is a directory, not an edit file";
        QTest::newRow("--edits 65 MiB")
            << "--edits" << huge << "file is 65 MiB, over the 64 MiB limit for an edit file";
        QTest::newRow("--target FIFO")
            << "--target" << fifo << "is a FIFO (named pipe), not a target profile";
        QTest::newRow("--target /dev/zero") << "--target"
                                            << "/dev/zero"
                                            << "is a character device, not a target profile";
    }
    void notARegularFile() {
        QFETCH(QString, option);
        QFETCH(QString, file);
        QFETCH(QString, problem);
        const Run r = cli({QStringLiteral("analyze"), model_, option, file});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.startsWith("bpuscope: error: " + file.toUtf8() + ": "), r.err.constData());
        QVERIFY2(QString::fromUtf8(r.err).contains(problem), r.err.constData());
    }

    // A file that is not JSON at all (say --target /etc/shadow): the message says where parsing failed and
    // never quotes what it read.
    void jsonErrorsDoNotQuoteTheFile() {
        const QString secret = write(QStringLiteral("shadow"), "root:$6$SECRETHASH0123:19000:0:99999:7:::\n");
        for (const char* option : {"--target", "--edits"}) {
            const Run r = cli({QStringLiteral("analyze"), model_, QLatin1String(option), secret});
            QCOMPARE(r.exitCode, 3);
            QVERIFY2(r.err.contains("not valid JSON (syntax error at line 1, column 1)"), r.err.constData());
            QVERIFY2(!r.err.contains("SECRETHASH") && !r.err.contains("root:"), r.err.constData());
        }
        // Line and column are those of the first bad byte: line 3, column 12 here.
        const QString bad = write(QStringLiteral("bad.json"), "{\n  \"edits\": [\n    {\"op\": x}]}\n");
        const Run r = cli({QStringLiteral("analyze"), model_, QStringLiteral("--edits"), bad});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("not valid JSON (syntax error at line 3, column 12)"), r.err.constData());
    }

    // Measured latencies must be positive finite numbers: nan, inf, 0 and -1 gave "+nan%" errors.
    void calibrationNumbers_data() {
        QTest::addColumn<QString>("latency");
        for (const char* v : {"nan", "inf", "0", "-1", "12abc", ""})
            QTest::newRow(*v ? v : "empty") << QString::fromLatin1(v);
    }
    void calibrationNumbers() {
        QFETCH(QString, latency);
        const QString csv =
            write(QStringLiteral("m.csv"),
                  "model,file,target,latency_ms,fps\nmnv2,model.onnx,s100," + latency.toUtf8() + ",100\n");
        const Run r = cli({QStringLiteral("calibrate"), csv});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(
            r.err.contains("m.csv:2: latency_ms is '" + latency.toUtf8() + "'; it must be a positive number"),
            r.err.constData());
    }

    // The batch limit of the set_batch edit (4096) holds for --batch and --input-shape too.
    void batchLimit_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::addRow("--batch 4097") << QStringList{"--batch", "4097"} << 2;
        QTest::addRow("--input-shape 4097x3x224x224")
            << QStringList{"--input-shape", "input=4097x3x224x224"} << 2;
        QTest::addRow("--batch 4096") << QStringList{"--batch", "4096"} << 0;
    }
    void batchLimit() {
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        const Run r = cli(QStringList{QStringLiteral("info"), model_} + options);
        QCOMPARE(r.exitCode, exitCode);
        if (exitCode == 2)
            QVERIFY2(r.err.contains("4096"), r.err.constData());
    }

    // Names are data: nodes called "<img src=x onerror=alert(1)>|`*" and "[click](javascript:alert(1))" and
    // an output "<script>" reach the Markdown and HTML reports as text, not as markup or a link.
    void namesAreEscapedInReports() {
        const QString model =
            QString::fromStdString(bpu::test::testDataDir() + "/hostile/html_in_names.onnx");
        for (const char* format : {"md", "html"}) {
            const QString out = dir_.filePath(QStringLiteral("names.") + QLatin1String(format));
            const Run r = cli({QStringLiteral("report"), model, QStringLiteral("-o"), out});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            QVERIFY2(!text.contains("<script>"), format);
            QVERIFY2(!text.contains("<img"), format);
            if (QLatin1String(format) == QLatin1String("md")) {
                // Markdown needs only "<" encoded to keep HTML out, and the "(" of a link escaped.
                QVERIFY(text.contains("&lt;script>alert(1)&lt;/script>"));
                QVERIFY(text.contains("[click]\\(javascript:alert(1))"));
            } else {
                QVERIFY(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
            }
        }
    }

    // A batch edit on a model whose H/W the file leaves open says which dim is open and how to give it, not
    // "overflow" (exit 3); with the shape given, that is not what stops it (this graph fixes its batch at a
    // Concat, which the edit then names).
    void batchOnUnresolvedDims() {
        const QString seg =
            QString::fromStdString(bpu::test::testDataDir() + "/families/segmentation_os16.onnx");
        QFile f(dir_.filePath(QStringLiteral("batch2.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"([{"op": "set_batch", "batch": 2}])");
        f.close();
        const Run open = cli({"analyze", seg, "--edits", f.fileName()});
        QCOMPARE(open.exitCode, 3);
        QVERIFY2(open.err.contains("input 'image' has an unresolved dim 2 ('height')") &&
                     !open.err.contains("overflow"),
                 open.err.constData());
        const Run given =
            cli({"analyze", seg, "--edits", f.fileName(), "--input-shape", "image=1x3x256x256"});
        QVERIFY2(!given.err.contains("unresolved") && given.err.contains("re-export with a dynamic batch"),
                 given.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestBadCliInputs)
#include "tst_bad_cli_inputs.moc"
