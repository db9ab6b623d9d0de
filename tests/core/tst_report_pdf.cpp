// SPDX-License-Identifier: MIT
// The PDF report end to end through the real CLI, with no display (DISPLAY, WAYLAND_DISPLAY and
// QT_QPA_PLATFORM removed, so `report` must pick the offscreen platform itself): the file exists, `pdfinfo`
// gives a sane page count, `pdftotext` shows the model name, the top finding's rule and the FPS `analyze
// --json -` reports (printed as the report prints it); with edits both the baseline and the edited FPS; CJK
// node names come out as text; bad input exits 3 naming the file.
#include "CliRun.h"
#include "OnnxFixtures.h"
#include "TestPaths.h"

#include "core/report/ReportFormat.h"

#include <nlohmann/json.hpp>

#include <QRegularExpression>
#include <QStandardPaths>
#include <QtTest>

namespace {

QString sample(const char* name) {
    return QString::fromStdString(bpu::test::samplesDir() + "/") + QLatin1String(name);
}

/// A run's output decoded: the checks below read it as text.
struct Run {
    int exitCode = -1;
    QString out, err;
};

/// The environment with no display in it.
QProcessEnvironment headless() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QLatin1String(var));
    return env;
}

/// Runs a tool with no display in its environment.
Run run(const QString& program, const QStringList& args) {
    const clirun::Proc p = clirun::runProgram(program, args, 300000, headless());
    return {p.exitCode, QString::fromUtf8(p.out), QString::fromUtf8(p.err)};
}

Run cli(const QStringList& args) {
    return run(QString::fromStdString(bpu::test::cliPath()), args);
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

/// The text lines of page `page` (1-based) as pdftotext extracts them, empty lines dropped.
QStringList pageLines(const QString& pdf, int page) {
    const QString n = QString::number(page);
    const Run r = run(QStringLiteral("pdftotext"),
                      {QStringLiteral("-f"), n, QStringLiteral("-l"), n, pdf, QStringLiteral("-")});
    QStringList out;
    for (const QString& l : r.out.split(QLatin1Char('\n')))
        if (!l.trimmed().isEmpty())
            out << l.trimmed();
    return out;
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
#ifndef BPUSCOPE_CLI_HAS_PDF
        QSKIP("built without the GUI libraries (BPUSCOPE_BUILD_GUI=OFF): bpuscope-cli writes no PDF");
#endif
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
        QVERIFY2(text.contains(QStringLiteral("#1 ") + rule + QStringLiteral(": ")), qPrintable(rule));
        // The other headline numbers as analyze prints them: latency, placement counts, the slowest node.
        const auto& sum = a["summary"];
        const QString latency =
            QString::fromStdString(bpu::report::fmt::ms(sum["latency_ms"].get<double>())) +
            QStringLiteral(" ms");
        QVERIFY2(text.contains(latency + QStringLiteral(" per inference")), qPrintable(latency));
        const QString placement = QStringLiteral("%1 BPU, %2 CPU, %3 folded")
                                      .arg(sum["bpu_nodes"].get<int>())
                                      .arg(sum["cpu_nodes"].get<int>())
                                      .arg(sum["folded_nodes"].get<int>());
        QVERIFY2(text.contains(placement), qPrintable(placement));
        const nlohmann::json* slowest = nullptr;
        for (const auto& n : a["nodes"])
            if (!slowest || n["latency_us"].get<double>() > (*slowest)["latency_us"].get<double>())
                slowest = &n;
        const QString hot = QString::fromStdString((*slowest)["name"].get<std::string>()) + QLatin1Char(' ') +
                            QString::fromStdString((*slowest)["op"].get<std::string>());
        QVERIFY2(text.contains(hot), qPrintable(hot));
        QVERIFY(text.contains(
            QString::fromStdString(bpu::report::fmt::us((*slowest)["latency_us"].get<double>()))));
        // Footer on every page, sections present.
        QVERIFY(text.contains(QStringLiteral("Page %1 of %1").arg(pages)));
        for (const char* heading :
             {"1. Summary", "2. Findings ranked by estimated gain", "3. Hotspots", "4. BPU layers",
              "5. Charts", "6. Graph overview", "7. What-if", "8. Method and assumptions"})
            QVERIFY2(text.contains(QLatin1String(heading)), heading);
    }

    /// What a reader sees, page by page: page 1 has the three latency figures by name, the deployment and
    /// the top findings and nothing of the method; no number anywhere in exponent notation, no "1 nodes";
    /// no page ends with a section heading (keep-with-next); a graph too large to read is not drawn whole.
    void pagesReadWell_data() {
        QTest::addColumn<QString>("model");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n");
        QTest::addRow("resnet50") << QStringLiteral("resnet50");
        QTest::addRow("ssdlite") << QStringLiteral("ssdlite320_mobilenet_v3_large");
    }
    void pagesReadWell() {
        QFETCH(QString, model);
        const QString onnx = sample((model + QStringLiteral(".onnx")).toUtf8().constData());
        const QString out = QString::fromStdString(fixtures::tempDir()) + QLatin1Char('/') + model +
                            QStringLiteral("-pages.pdf");
        const Run r = cli({QStringLiteral("report"), onnx, QStringLiteral("-o"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        const QString first = pageLines(out, 1).join(QLatin1Char(' '));
        for (const char* want :
             {"Board, 1 thread", "2 threads", "BPU (static)", "Deployment", "Top findings"})
            QVERIFY2(first.contains(QLatin1String(want)), want);
        for (const char* unwanted : {"Method and assumptions", "How the estimate is made", "Target profile",
                                     "Profile file", "Producer"})
            QVERIFY2(!first.contains(QLatin1String(unwanted)), unwanted);

        const QString text = pdfText(out);
        const QRegularExpression scientific(
            QStringLiteral("(^|[^A-Za-z0-9_./])[0-9]+(\\.[0-9]+)?[eE][+-]?[0-9]+\\b"));
        const auto sci = scientific.match(text);
        QVERIFY2(!sci.hasMatch(), qPrintable(sci.captured(0)));
        const QRegularExpression onePlural(QStringLiteral("(^|[^0-9.,])1 (nodes|layers|segments|groups)\\b"));
        QVERIFY2(!onePlural.match(text).hasMatch(), qPrintable(onePlural.match(text).captured(0)));
        QVERIFY(!text.contains(QStringLiteral("spills_to_ddr")));

        const QRegularExpression heading(QStringLiteral("^[1-9]\\. [A-Z][A-Za-z -]+$"));
        const int pages = pageCount(out);
        for (int p = 1; p <= pages; ++p) {
            QStringList lines = pageLines(out, p);
            // The footer (model, date, "Page X of N") is painted before the content; drop header/footer
            // lines.
            lines.removeIf([](const QString& l) {
                return l.startsWith(QLatin1String("Page ")) || l.contains(QLatin1String(" generated ")) ||
                       l.startsWith(QLatin1String("BpuScope optimization report")) ||
                       l.startsWith(QLatin1String("Horizon S100"));
            });
            QVERIFY(!lines.isEmpty());
            QVERIFY2(!heading.match(lines.last()).hasMatch(),
                     qPrintable(QStringLiteral("page %1 ends with '%2'").arg(p).arg(lines.last())));
        }
        if (model.startsWith(QLatin1String("ssdlite")))
            QVERIFY(text.contains(QStringLiteral("too large to draw legibly")));
    }

    void pdfWithEdits() {
        const QString onnx = sample("yolov8n.onnx");
        const nlohmann::json edits = {
            {"edits",
             {{{"op", "set_precision"}, {"precision", "int16"}, {"op_types", {"Conv"}}},
              {{"op", "filter_outputs"}, {"keep", 300}}}}};
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
        QVERIFY(text.contains(QStringLiteral("set_precision")));
    }

    void progressOnStderr() {
        const QString out = QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/progress.pdf");
        const Run r = cli({QStringLiteral("report"), sample("mobilenet_v2.onnx"), QStringLiteral("-o"), out,
                           QStringLiteral("--progress")});
        QCOMPARE(r.exitCode, 0);
        // One line per stage, in order, each with the elapsed time, from import to the last painted page.
        const QStringList lines = r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QStringList stages;
        double previous = -1;
        const QRegularExpression line(QStringLiteral("^\\[\\s*([0-9.]+) s\\]\\s+[0-9]+% (.+)$"));
        for (const QString& l : lines) {
            if (l.startsWith(QLatin1String("bpuscope: note: ")) ||
                l.startsWith(QLatin1String("bpuscope: warning: ")))
                continue; // the model's diagnostics (a graph-only sample's absent weights)
            const auto m = line.match(l);
            QVERIFY2(m.hasMatch(), qPrintable(l));
            QVERIFY(m.captured(1).toDouble() >= previous);
            previous = m.captured(1).toDouble();
            stages << m.captured(2);
        }
        for (const char* stage :
             {"import", "finding gains", "calibration", "laying out: Summary", "painting page 1", "written"})
            QVERIFY2(stages.contains(QLatin1String(stage)), stage);
        QCOMPARE(stages.indexOf(QStringLiteral("import")), 0);
        QCOMPARE(stages.last(), QStringLiteral("written"));
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

    /// Headless bad input: exit 3, one line "bpuscope: error: <the bad file>: <what>", no output written.
    void badInputs_data() {
        QTest::addColumn<QStringList>("args"); // after "report"; OUT stands for the output path
        QTest::addColumn<QString>("culprit");  // the file the message must name
        QTest::addColumn<QString>("what");     // a word of the explanation

        QFile model(sample("yolov8n.onnx"));
        QVERIFY(model.open(QIODevice::ReadOnly));
        const QString truncated = QString::fromStdString(
            fixtures::writeBytes("truncated.onnx", model.read(model.size() / 3).toStdString()));
        const QString mobilenet = sample("mobilenet_v2.onnx");
        auto editFile = [](const char* name, const char* text) {
            return QString::fromStdString(fixtures::writeBytes(name, text));
        };
        const QString badJson = editFile("edits-bad.json", R"({"edits": [{"op": "fuse_all"},)");
        const QString badOp = editFile("edits-op.json", R"({"edits": [{"op": "make_faster"}]})");
        const QString badNode = editFile(
            "edits-node.json", R"({"edits": [{"op": "set_group", "node": "no_such_conv", "group": 2}]})");
        const QString noEdits =
            QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/no-edits.json");
        const QString dir = QString::fromStdString(fixtures::tempDir());

        QTest::addRow("truncated model") << QStringList{truncated, "-o", "OUT"} << truncated << "protobuf";
        QTest::addRow("missing model")
            << QStringList{dir + "/missing.onnx", "-o", "OUT"} << dir + "/missing.onnx"
            << "no such file";
        QTest::addRow("edits not JSON")
            << QStringList{mobilenet, "--edits", badJson, "-o", "OUT"} << badJson << "JSON";
        QTest::addRow("edits unknown op")
            << QStringList{mobilenet, "--edits", badOp, "-o", "OUT"} << badOp << "make_faster";
        QTest::addRow("edits unknown node")
            << QStringList{mobilenet, "--edits", badNode, "-o", "OUT"} << badNode << "no_such_conv";
        QTest::addRow("edits missing")
            << QStringList{mobilenet, "--edits", noEdits, "-o", "OUT"} << noEdits << "no such file";
        QTest::addRow("output is a folder") << QStringList{mobilenet, "-o", dir} << dir << "directory";
        QTest::addRow("pdf folder missing")
            << QStringList{mobilenet, "-o", "/nonexistent-dir/r.pdf"} << "/nonexistent-dir/r.pdf"
            << "cannot write";
        QTest::addRow("md folder missing")
            << QStringList{mobilenet, "-o", "/nonexistent-dir/r.md"} << "/nonexistent-dir/r.md"
            << "cannot write";
    }
    void badInputs() {
        QFETCH(QStringList, args);
        QFETCH(QString, culprit);
        QFETCH(QString, what);
        const QString out = QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/bad-input.pdf");
        QFile::remove(out);
        args.replaceInStrings(QStringLiteral("OUT"), out);
        const Run r = cli(QStringList{QStringLiteral("report")} + args);
        QCOMPARE(r.exitCode, 3);
        const QString prefix = QStringLiteral("bpuscope: error: ") + culprit + QStringLiteral(": ");
        QVERIFY2(r.err.startsWith(prefix), qPrintable(r.err));
        QVERIFY2(r.err.contains(what), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line, no Qt noise
        QVERIFY(r.out.isEmpty());
        QVERIFY(!QFileInfo::exists(out));
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
