// SPDX-License-Identifier: MIT
// Issue 43, step 1: outputs that behave like a Unix tool's. A symlink is written through to its target (the
// link stays a link), a FIFO and /dev/null are written in place, a failed write - stdout's included - exits
// 3 naming the output, and a failed atomic write leaves the old file and no temporary.
#include "CliRun.h"
#include "OnnxFixtures.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

namespace {

QString sample() {
    return QString::fromStdString(bpu::test::samplesDir() + "/resnet18.onnx");
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool isAnalysisJson(const QByteArray& bytes) {
    try {
        return nlohmann::json::parse(bytes.toStdString())["schema"] == "bpuscope.analysis/1";
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace

class TestOutputs : public QObject {
    Q_OBJECT
    QString dir_;

private slots:
    void initTestCase() {
        dir_ = QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/outputs");
        QDir().mkpath(dir_);
    }

    // A link to an existing file: the file gets the JSON, the link stays a link to it.
    void symlinkIsWrittenThrough() {
        const QString real = dir_ + QStringLiteral("/real.json"), link = dir_ + QStringLiteral("/link.json");
        QFile::remove(link);
        QFile f(real);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{}");
        f.close();
        QVERIFY(QFile::link(QStringLiteral("real.json"), link)); // relative, as `ln -s` makes it
        const auto r = clirun::runCli({QStringLiteral("analyze"), sample(), QStringLiteral("--json"), link});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(isAnalysisJson(readAll(real)));
        QVERIFY(QDir(dir_).entryList({QStringLiteral("*.json.*")}, QDir::Files | QDir::Hidden).isEmpty());
    }

    // A dangling link names the file to create, in the folder it points to.
    void danglingSymlinkCreatesItsTarget() {
        QDir().mkpath(dir_ + QStringLiteral("/sub"));
        const QString link = dir_ + QStringLiteral("/dangling.csv");
        QFile::remove(link);
        QFile::remove(dir_ + QStringLiteral("/sub/new.csv"));
        QVERIFY(QFile::link(QStringLiteral("sub/new.csv"), link));
        const auto r = clirun::runCli({QStringLiteral("analyze"), sample(), QStringLiteral("--csv"), link});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(readAll(dir_ + QStringLiteral("/sub/new.csv")).startsWith("name,op,placement"));
    }

    // A FIFO is written in place and read whole by another process; /dev/null takes the output.
    void fifoAndDevNullAreWrittenInPlace() {
        const QString fifo = dir_ + QStringLiteral("/out.fifo");
        QFile::remove(fifo);
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QProcess reader;
        reader.start(QStringLiteral("cat"), {fifo});
        QVERIFY(reader.waitForStarted());
        const auto r = clirun::runCli({QStringLiteral("analyze"), sample(), QStringLiteral("--json"), fifo});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(reader.waitForFinished(60000));
        QVERIFY(isAnalysisJson(reader.readAllStandardOutput()));
        struct stat st {};
        QCOMPARE(::stat(fifo.toLocal8Bit().constData(), &st), 0);
        QVERIFY(S_ISFIFO(st.st_mode)); // not replaced by a regular file
        const auto null = clirun::runCli(
            {QStringLiteral("analyze"), sample(), QStringLiteral("--json"), QStringLiteral("/dev/null")});
        QCOMPARE(null.exitCode, 0);
    }

    // A write that fails is a failure: stdout on a full device (the JSON on "-", and the text output), and a
    // path that is the full device.
    void failedWritesExitThree() {
        for (const QStringList& extra :
             {QStringList{QStringLiteral("--json"), QStringLiteral("-")}, QStringList{}}) {
            QProcess p;
            p.setStandardOutputFile(QStringLiteral("/dev/full"));
            p.start(QString::fromStdString(bpu::test::cliPath()),
                    QStringList{QStringLiteral("analyze"), sample()} + extra);
            QVERIFY(p.waitForFinished(120000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(p.exitCode() == 3, err.constData());
            QVERIFY2(err.contains("bpuscope: error: stdout: write failed: No space left on device"),
                     err.constData());
        }
        const auto full = clirun::runCli(
            {QStringLiteral("analyze"), sample(), QStringLiteral("--json"), QStringLiteral("/dev/full")});
        QCOMPARE(full.exitCode, 3);
        QVERIFY2(full.err.contains("/dev/full: write failed: No space left on device"), full.err.constData());
    }

    // Step 2: two outputs on one file or one stream are refused before any work, and so is an output that is
    // a model a sweep discovered in its folder (by path or by a hard link to it).
    void sharedOutputsAreRefused() {
        const QString x = dir_ + QStringLiteral("/x.json");
        QFile::remove(x);
        const auto file = clirun::runCli(
            {QStringLiteral("analyze"), sample(), QStringLiteral("--json"), x, QStringLiteral("--csv"), x});
        QCOMPARE(file.exitCode, 3);
        QVERIFY2(file.err.contains("--json " + x.toUtf8() + " and --csv " + x.toUtf8() + " are one file"),
                 file.err.constData());
        QVERIFY(!QFile::exists(x)); // refused before anything was written
        const auto stream =
            clirun::runCli({QStringLiteral("analyze"), sample(), QStringLiteral("--json"),
                            QStringLiteral("-"), QStringLiteral("--csv"), QStringLiteral("-")});
        QCOMPARE(stream.exitCode, 3);
        QVERIFY2(stream.err.contains("--json - and --csv - both write to stdout"), stream.err.constData());
        QVERIFY(stream.out.isEmpty());
        // /dev/stdout is stdout too: it and "-" are one stream.
        const auto named =
            clirun::runCli({QStringLiteral("analyze"), sample(), QStringLiteral("--json"),
                            QStringLiteral("/dev/stdout"), QStringLiteral("--csv"), QStringLiteral("-")});
        QCOMPARE(named.exitCode, 3);
        QVERIFY2(named.err.contains("both write to stdout"), named.err.constData());
        // Alone, /dev/stdout carries the JSON and nothing else (the text summary stays off the stream).
        const auto alone = clirun::runCli(
            {QStringLiteral("analyze"), sample(), QStringLiteral("--json"), QStringLiteral("/dev/stdout")});
        QCOMPARE(alone.exitCode, 0);
        QVERIFY2(isAnalysisJson(alone.out), alone.out.left(200).constData());
    }

    void sweepKeepsItsModels() {
        const QString folder = dir_ + QStringLiteral("/sweep");
        QDir(folder).removeRecursively();
        QVERIFY(QDir().mkpath(folder));
        const QString model = folder + QStringLiteral("/a.onnx");
        QVERIFY(QFile::copy(sample(), model));
        const QByteArray before = readAll(model);
        const QString hard = dir_ + QStringLiteral("/hard-link.onnx");
        QFile::remove(hard);
        QCOMPARE(::link(model.toLocal8Bit().constData(), hard.toLocal8Bit().constData()), 0);
        for (const QStringList& out :
             {QStringList{QStringLiteral("--csv"), model}, QStringList{QStringLiteral("--html"), model},
              QStringList{QStringLiteral("--csv"), hard}}) {
            const auto r = clirun::runCli(QStringList{QStringLiteral("sweep"), folder} + out);
            QCOMPARE(r.exitCode, 3);
            QVERIFY2(r.err.contains(": is a model this sweep reads (" + model.toUtf8() + ")"),
                     r.err.constData());
            QCOMPARE(readAll(model), before);
        }
    }

    // The external-data file a model names is an input of the run too, present or not yet.
    void externalDataIsAnInput() {
        fixtures::ModelBuilder b;
        b.input("x", {1, 8});
        b.externalWeight("w", {8}, "outputs-ext.weights");
        b.node("Add", {"x", "w"}, {"y"}, "add");
        b.output("y");
        const QString model = QString::fromStdString(b.save("outputs-ext.onnx"));
        const QString weights = QFileInfo(model).absolutePath() + QStringLiteral("/outputs-ext.weights");
        for (const char* option : {"--json", "--csv"}) {
            const auto r =
                clirun::runCli({QStringLiteral("analyze"), model, QString::fromLatin1(option), weights});
            QCOMPARE(r.exitCode, 3);
            QVERIFY2(r.err.contains(": is an external-data file of the model"), r.err.constData());
            QVERIFY(!QFile::exists(weights));
        }
    }

    // A folder, a missing parent: refused before any work, naming the path.
    void foldersAreRefused() {
        const auto folder =
            clirun::runCli({QStringLiteral("analyze"), sample(), QStringLiteral("--json"), dir_});
        QCOMPARE(folder.exitCode, 3);
        QVERIFY2(folder.err.contains(": cannot write: is a directory"), folder.err.constData());
        const QString missing = dir_ + QStringLiteral("/no/such/folder/out.json");
        const auto parent =
            clirun::runCli({QStringLiteral("analyze"), sample(), QStringLiteral("--json"), missing});
        QCOMPARE(parent.exitCode, 3);
        QVERIFY2(parent.err.contains(missing.toUtf8() + ": cannot write: no folder"), parent.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestOutputs)
#include "tst_outputs.moc"
