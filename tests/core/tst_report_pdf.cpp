// SPDX-License-Identifier: MIT
// The PDF report end to end through the real CLI, with no display (DISPLAY, WAYLAND_DISPLAY and
// QT_QPA_PLATFORM removed, so `report` must pick the offscreen platform itself): the file exists, `pdfinfo`
// gives a sane page count, `pdftotext` shows the model name, the top finding's rule and the FPS `analyze
// --json -` reports (printed as the report prints it); with edits both the baseline and the edited FPS; CJK
// node names come out as text; bad input exits 3 naming the file.
#include "OnnxFixtures.h"

#include "core/report/ReportFormat.h"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtTest>

namespace {

QString sample(const char* name) {
    return QStringLiteral(BPUSCOPE_SAMPLES "/") + QLatin1String(name);
}

struct Run {
    int exitCode = -1;
    QString out, err;
};

/// Runs a tool with no display in its environment.
Run run(const QString& program, const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QLatin1String(var));
    p.setProcessEnvironment(env);
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(300000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

Run cli(const QStringList& args) {
    return run(QStringLiteral(BPUSCOPE_CLI), args);
}

nlohmann::json analyze(const QString& model, const QStringList& extra = {}) {
    const Run r = cli(
        QStringList{QStringLiteral("analyze"), model, QStringLiteral("--json"), QStringLiteral("-")} + extra);
    if (r.exitCode != 0)
        return nullptr;
    return nlohmann::json::parse(r.out.toStdString(), nullptr, false);
}

int pageCount(const QString& pdf) {
    const Run r = run(QStringLiteral("pdfinfo"), {pdf});
    const auto m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(r.out);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

/// pdftotext output with every run of whitespace collapsed to one space.
QString pdfText(const QString& pdf) {
    const Run r = run(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    return r.out.simplified();
}

QString fpsText(const nlohmann::json& v) {
    return QString::fromStdString(bpu::report::fmt::fps(v.get<double>()));
}

bool havePoppler() {
    return !QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty() &&
           !QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty();
}

} // namespace

class TestReportPdf : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!havePoppler())
            QSKIP("pdfinfo/pdftotext not installed (poppler-utils; packaging/bootstrap installs it)");
    }

    void pdf_data() {
        QTest::addColumn<QString>("model");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n");
        QTest::addRow("resnet50") << QStringLiteral("resnet50");
    }
    void pdf() {
        QFETCH(QString, model);
        const QString onnx = sample((model + QStringLiteral(".onnx")).toUtf8().constData());
        const nlohmann::json a = analyze(onnx);
        QVERIFY2(a.is_object(), "analyze --json - failed");
        const QString fps = fpsText(a["summary"]["fps"]);
        const QString rule = QString::fromStdString(a["findings"].at(0)["rule"].get<std::string>());

        const QString out =
            QString::fromStdString(fixtures::tempDir()) + QLatin1Char('/') + model + QStringLiteral(".pdf");
        const Run r = cli({QStringLiteral("report"), onnx, QStringLiteral("-o"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(QFileInfo(out).size() > 10000);
        const int pages = pageCount(out);
        QVERIFY2(pages >= 4 && pages <= 60, qPrintable(QString::number(pages)));

        const QString text = pdfText(out);
        QVERIFY(text.contains(model));
        QVERIFY2(text.contains(fps + QStringLiteral(" FPS")), qPrintable(fps));
        QVERIFY2(text.contains(QStringLiteral("[") + rule + QStringLiteral("]")), qPrintable(rule));
        // Footer on every page, sections present.
        QVERIFY(text.contains(QStringLiteral("Page %1 of %1").arg(pages)));
        for (const char* heading :
             {"1. Summary", "2. Findings ranked by estimated gain", "3. Hotspots", "4. Charts",
              "5. Graph overview", "6. What-if", "7. Method and assumptions"})
            QVERIFY2(text.contains(QLatin1String(heading)), heading);
    }

    void pdfWithEdits() {
        const QString onnx = sample("yolov8n.onnx");
        const nlohmann::json edits = {
            {"edits", {{{"op", "remove_boundary_qdq"}}, {{"op", "filter_outputs"}, {"keep", 300}}}}};
        const QString editFile = QString::fromStdString(fixtures::writeBytes("pdf-edits.json", edits.dump()));
        const nlohmann::json a = analyze(onnx, {QStringLiteral("--edits"), editFile});
        QVERIFY(a.is_object());
        const QString edited = fpsText(a["summary"]["fps"]), base = fpsText(a["baseline"]["fps"]);
        QVERIFY(edited != base);

        const QString out = QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/edited.pdf");
        const Run r = cli(
            {QStringLiteral("report"), onnx, QStringLiteral("--edits"), editFile, QStringLiteral("-o"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString text = pdfText(out);
        QVERIFY2(text.contains(edited + QStringLiteral(" FPS")), qPrintable(edited));
        QVERIFY2(text.contains(base), qPrintable(base));
        QVERIFY(text.contains(QStringLiteral("Baseline (as imported) vs edited")));
        QVERIFY(text.contains(QStringLiteral("remove_boundary_qdq")));
    }

    void cjkNodeNames() {
        fixtures::ModelBuilder m;
        m.input("x", {1, 3, 32, 32});
        m.weight("w", {16, 3, 3, 3});
        m.node("Conv", {"x", "w"}, {"c"}, "\u5377\u79ef\u5c42_1"); // 卷积层_1
        m.node("Relu", {"c"}, {"y"}, "\u6fc0\u6d3b_\u8282\u70b9"); // 激活_节点
        m.output("y");
        const QString onnx = QString::fromStdString(m.save("cjk.onnx"));
        const QString out = QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/cjk.pdf");
        const Run r = cli({QStringLiteral("report"), onnx, QStringLiteral("-o"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString text = pdfText(out);
        QVERIFY2(text.contains(QStringLiteral("\u5377\u79ef\u5c42_1")), qPrintable(text.left(400)));
        QVERIFY(text.contains(QStringLiteral("\u6fc0\u6d3b_\u8282\u70b9")));
    }

    void badInput() {
        const QString garbage = QString::fromStdString(fixtures::writeBytes("garbage.onnx", "not a model"));
        const QString out = QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/never.pdf");
        Run r = cli({QStringLiteral("report"), garbage, QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.startsWith(QStringLiteral("bpuscope: error: ") + garbage + QStringLiteral(": ")),
                 qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));

        const QString unwritable = QStringLiteral("/nonexistent-dir/report.pdf");
        r = cli({QStringLiteral("report"), sample("mobilenet_v2.onnx"), QStringLiteral("-o"), unwritable});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.startsWith(QStringLiteral("bpuscope: error: ") + unwritable + QStringLiteral(": ")),
                 qPrintable(r.err));

        r = cli({QStringLiteral("report"), sample("mobilenet_v2.onnx"), QStringLiteral("-o"), out,
                 QStringLiteral("--format"), QStringLiteral("docx")});
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestReportPdf)
#include "tst_report_pdf.moc"
