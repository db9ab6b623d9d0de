// SPDX-License-Identifier: MIT
// File > Export Report from the workbench, offscreen on YOLOv8n with a what-if edit applied: the report is
// the one `bpuscope-cli report --edits` writes for the same model and edits (byte for byte in the text
// formats), a PDF is written off the GUI thread, Cancel leaves no file, and a bad path or format is an error.
#include "TestPaths.h"
#include "WorkbenchFixture.h"

#include "core/edit/EditList.h"
#include "ui/main/ReportExporter.h"
#include "ui/whatif/WhatIfActions.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <sys/stat.h>

using namespace bpu;
using namespace bpu::ui;

namespace {

const char* kEdit = R"({"op": "set_channels", "node": "/model.0/conv/Conv", "channels": 24})";

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestReportExport : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;

    /// Exports to `name` in the temp dir and waits for the outcome; returns the error ("" on success).
    QString exportTo(const QString& name, bool cancelAtOnce = false) {
        QSignalSpy done(w_.get(), &MainWindow::reportFinished);
        if (!w_->exportReportTo(dir_.filePath(name)))
            return QStringLiteral("not started");
        if (cancelAtOnce)
            w_->reportExporter()->cancel();
        if (!done.wait(300000))
            return QStringLiteral("timeout");
        return done.at(0).at(1).toString();
    }

    /// What `bpuscope-cli report` writes for the sample with the same edit.
    QByteArray cliReport(const QString& name) {
        const QString edits = dir_.filePath(QStringLiteral("edits.json"));
        QFile f(edits);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write((QByteArrayLiteral("{\"edits\": [") + kEdit + "]}").constData());
        f.close();
        QProcess cli;
        cli.start(QString::fromStdString(bpu::test::cliPath()),
                  {QStringLiteral("report"), fixture::sample("yolov8n.onnx"), QStringLiteral("--edits"),
                   edits, QStringLiteral("-o"), dir_.filePath(name)});
        if (!cli.waitForFinished(300000) || cli.exitCode() != 0)
            return {};
        return readAll(dir_.filePath(name));
    }

private slots:
    void initTestCase() {
        // One date for the GUI's and the CLI's report (the process environment reaches the CLI too).
        qputenv("SOURCE_DATE_EPOCH", "1700000000");
        fixture::isolateSettings();
        QVERIFY(dir_.isValid());
        w_ = std::make_unique<MainWindow>();
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        w_->openModel(fixture::sample("yolov8n.onnx"));
        QVERIFY(fixture::waitSettled(*w_));
        w_->whatIf()->apply({editFromJson(nlohmann::json::parse(kEdit))}, QStringLiteral("test edit"));
        QVERIFY(fixture::waitSettled(*w_, [](const Snapshot& s) { return s.edits.size() == 1; }));
    }

    void textFormatsMatchTheCli_data() {
        QTest::addColumn<QString>("name");
        QTest::addRow("markdown") << QStringLiteral("report.md");
        QTest::addRow("html") << QStringLiteral("report.html");
        QTest::addRow("json") << QStringLiteral("report.json");
    }

    void textFormatsMatchTheCli() {
        QFETCH(QString, name);
        QCOMPARE(exportTo(QStringLiteral("gui-") + name), QString());
        const QByteArray gui = readAll(dir_.filePath(QStringLiteral("gui-") + name));
        QVERIFY(gui.size() > 10000);
        const QByteArray cli = cliReport(QStringLiteral("cli-") + name);
        QVERIFY(!cli.isEmpty());
        QCOMPARE(gui, cli);
        // The PDF's first-page cards and its BPU layer table are in every text format too.
        for (const char* want : {"Board, 1 thread", "2 threads", "BPU (static)", "slowest BPU layers"})
            QVERIFY2(gui.contains(want), want);
    }

    void jsonCarriesBaselineAndEdits() {
        QCOMPARE(exportTo(QStringLiteral("facts.json")), QString());
        const auto doc =
            nlohmann::json::parse(readAll(dir_.filePath(QStringLiteral("facts.json"))).toStdString());
        const std::string text = doc.dump();
        QVERIFY(text.find("set_channels") != std::string::npos);
        // The baseline is the model as loaded: its latency is the one before the edit.
        const auto s = w_->snapshot();
        QVERIFY(text.find("\"baseline\":null") == std::string::npos);
        QVERIFY(s->baseline.perImageMs != s->cost.perImageMs);
    }

    void pdfIsWrittenWithProgress() {
        QSignalSpy progress(w_->reportExporter(), &ReportExporter::progress);
        QCOMPARE(exportTo(QStringLiteral("report.pdf")), QString());
        const QByteArray pdf = readAll(dir_.filePath(QStringLiteral("report.pdf")));
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.size() > 50000);
        QVERIFY(progress.count() >= 4);
        double last = -1;
        for (const auto& args : progress) {
            QVERIFY2(args.at(0).toDouble() >= last,
                     qPrintable(args.at(1).toString())); // never goes backwards
            last = args.at(0).toDouble();
        }
        QCOMPARE(last, 1.0);
        QVERIFY(!w_->reportExporter()->isRunning());
    }

    void cancelLeavesNoFile() {
        QCOMPARE(exportTo(QStringLiteral("cancelled.pdf"), true), QStringLiteral("cancelled"));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("cancelled.pdf"))));
        QVERIFY(!w_->lastMessage()); // cancelling is no error
        // The exporter is free again.
        QCOMPARE(exportTo(QStringLiteral("after-cancel.md")), QString());
    }

    void badPathsAreClearErrors() {
        // A missing folder is refused before the export starts (issue 43: the CLI's output checks).
        const QString missing = dir_.filePath(QStringLiteral("no/such/dir/report.md"));
        QVERIFY(!w_->exportReportTo(missing));
        QVERIFY(w_->lastMessage());
        QVERIFY2(w_->lastMessage()->text().contains(missing + QStringLiteral(": cannot write: no folder")),
                 qPrintable(w_->lastMessage()->text()));
        w_->lastMessage()->close();

        // An unknown extension does not start at all and says which formats exist.
        QVERIFY(!w_->exportReportTo(dir_.filePath(QStringLiteral("report.docx"))));
        QVERIFY(w_->lastMessage());
        QVERIFY(w_->lastMessage()->text().contains(QStringLiteral(".pdf, .md, .html or .json")));
        w_->lastMessage()->close();
    }

    // Issue 43, step 3: the workbench's exports and project saves follow the CLI's output rules - a symlink
    // is written through (it stays a link), the open model and a FIFO are refused with the reason.
    void exportsFollowTheOutputRules() {
        const QString real = dir_.filePath(QStringLiteral("real.md")),
                      link = dir_.filePath(QStringLiteral("link.md"));
        QFile f(real);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("old");
        f.close();
        QVERIFY(QFile::link(QStringLiteral("real.md"), link));
        QCOMPARE(exportTo(QStringLiteral("link.md")), QString());
        QVERIFY(QFileInfo(link).isSymLink());
        QVERIFY(readAll(real).startsWith("# BpuScope optimization report"));

        // A link to the open model is the open model.
        const QString model = w_->snapshot()->modelPath;
        const QString modelLink = dir_.filePath(QStringLiteral("model-link.json"));
        QVERIFY(QFile::link(model, modelLink));
        QVERIFY(!w_->exportReportTo(modelLink));
        QVERIFY(w_->lastMessage());
        QVERIFY2(w_->lastMessage()->text().contains(QStringLiteral("is the open model")),
                 qPrintable(w_->lastMessage()->text()));
        w_->lastMessage()->close();

        const QString fifo = dir_.filePath(QStringLiteral("report.fifo.md"));
        QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
        QVERIFY(!w_->exportReportTo(fifo));
        QVERIFY(w_->lastMessage()->text().contains(QStringLiteral("not a regular file")));
        w_->lastMessage()->close();

        // A project saved through a symlink: the link stays, its target holds the project.
        const QString projectReal = dir_.filePath(QStringLiteral("p-real.bpuscope")),
                      projectLink = dir_.filePath(QStringLiteral("p-link.bpuscope"));
        QFile pf(projectReal);
        QVERIFY(pf.open(QIODevice::WriteOnly));
        pf.close();
        QVERIFY(QFile::link(QStringLiteral("p-real.bpuscope"), projectLink));
        QEventLoop loop;
        QString error = QStringLiteral("not called");
        w_->controller()->saveProject(projectLink, [&](const QString& e) {
            error = e;
            loop.quit();
        });
        loop.exec();
        QCOMPARE(error, QString());
        QVERIFY(QFileInfo(projectLink).isSymLink());
        QVERIFY(readAll(projectReal).contains("bpuscope.project/1"));
    }

    void cleanupTestCase() { w_.reset(); }
};

QTEST_MAIN(TestReportExport)
#include "tst_reportexport.moc"
