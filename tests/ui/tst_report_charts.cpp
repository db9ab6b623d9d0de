// SPDX-License-Identifier: MIT
// ui/charts and ui/report offscreen: each chart is built from a session's values, follows palette changes and
// records as a non-empty vector picture; the PDF export runs on a worker thread with progress.
#include "TestPaths.h"
#include "core/edit/Edit.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/report/ReportBuilder.h"
#include "ui/charts/ChartStyle.h"
#include "ui/charts/RankedBarChart.h"
#include "ui/charts/RooflineChart.h"
#include "ui/report/PdfReportWriter.h"

#include <QFutureWatcher>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>

namespace {

bpu::Session loadSession(const char* name) {
    auto target = std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100"));
    bpu::Session s(bpu::ModelImporter::load(bpu::test::samplesDir() + "/" + name), target);
    s.estimateFindingGains();
    return s;
}

bpu::report::ReportDocument buildDoc(const bpu::Session& s) {
    bpu::report::ReportInput in;
    in.session = &s;
    in.calibration = false;
    return bpu::report::buildReport(in);
}

int dataPoints(QCPGraph* g) {
    return g->data()->size();
}

} // namespace

class TestReportCharts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { session_.emplace(loadSession("resnet50.onnx")); }

    void layerLatencyChart() {
        bpu::ui::charts::LayerLatencyChart chart;
        chart.setSession(*session_, 20);
        QCOMPARE(chart.series().items.size(), size_t(20));
        // resnet50 runs wholly on the BPU: one bars plottable, no legend needed.
        QCOMPARE(chart.plottableCount(), 1);
        QVERIFY(!chart.legend->visible());
        auto* bars = qobject_cast<QCPBars*>(chart.plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 20);
        QCOMPARE(bars->brush().color(), bpu::ui::charts::placementColor(0));
        QCOMPARE(chart.itemCount(), 20); // a value label per bar
    }

    void rankedBarCategories() {
        bpu::report::BarSeries s;
        s.title = "t";
        s.categories = {"BPU", "CPU", "folded"};
        s.items = {{"a", 5, 0, "", {}}, {"b", 4, 1, "", {}}, {"c", 3, 0, "", {}}};
        bpu::ui::charts::LayerLatencyChart chart;
        chart.setSeries(s);
        QCOMPARE(chart.plottableCount(), 2); // BPU and CPU
        QVERIFY(chart.legend->visible());
        QCOMPARE(qobject_cast<QCPBars*>(chart.plottable(1))->brush().color(),
                 bpu::ui::charts::placementColor(1));
    }

    void rooflineChart() {
        bpu::ui::charts::RooflineChart chart;
        chart.setSession(*session_);
        const auto& d = chart.data();
        QVERIFY(d.points.size() > 40);
        // roof, peak, one roof per other rate kind (issue 63), compute-bound, memory-bound
        const int roofs = 2 + int(d.otherRoofs.size());
        QCOMPARE(chart.graphCount(), roofs + 2);
        QCOMPARE(dataPoints(chart.graph(roofs)) + dataPoints(chart.graph(roofs + 1)), int(d.points.size()));
        for (int i = 2; i < roofs; ++i) // a flat roof at its rate
            QVERIFY(chart.graph(i)->name().startsWith(QStringLiteral("roof: ")));
        QCOMPARE(chart.xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(chart.yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(chart.xAxis->range().contains(d.ridgeIntensity));
    }

    void recolorsOnPaletteChange() {
        bpu::ui::charts::OpBreakdownChart chart;
        chart.setSession(*session_);
        QPalette dark = chart.palette();
        dark.setColor(QPalette::Base, QColor(30, 30, 30));
        dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
        chart.setPalette(dark);
        QCOMPARE(chart.xAxis->tickLabelColor(), QColor(230, 230, 230));
    }

    void picturesForThePdf() {
        const auto doc = buildDoc(*session_);
        const bpu::ui::ChartPictures pics = bpu::ui::renderReportCharts(doc);
        QCOMPARE(pics.charts.size(), size_t(4));
        for (const auto& [kind, chart] : pics.charts) {
            QVERIFY(!chart.size.isEmpty());
            QVERIFY(chart.picture.size() > 1000); // recorded commands, not an empty picture
            QVERIFY(!chart.picture.boundingRect().isEmpty());
        }
    }

    void exportRunsOnAWorker() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.pdf"));
        std::mutex m;
        std::vector<double> fractions;
        std::atomic<bool> offGuiThread{false};
        QThread* gui = QThread::currentThread();
        bpu::Progress progress;
        progress.report = [&](double f, std::string_view) {
            std::lock_guard lock(m);
            fractions.push_back(f);
            if (QThread::currentThread() != gui)
                offGuiThread = true;
        };
        QFutureWatcher<QString> watcher;
        watcher.setFuture(bpu::ui::exportReportPdf(buildDoc(*session_), path, progress));
        QTRY_VERIFY_WITH_TIMEOUT(watcher.isFinished(), 120000);
        QCOMPARE(watcher.result(), QString());
        QVERIFY(offGuiThread.load());
        {
            std::lock_guard lock(m);
            QVERIFY(fractions.size() > 5);
            QCOMPARE(fractions.back(), 1.0);
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.read(5) == "%PDF-");
    }

    /// Nothing runs into the footer: not the 1197-edit fix of ssdlite's G1.1 finding (a key-value item seven
    /// pages long), not the detectors' huge graphs, not a hand-made document of extreme blocks.
    void noBlockRunsIntoTheFooter_data() {
        QTest::addColumn<QString>("model");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n.onnx");
        QTest::addRow("ssdlite320") << QStringLiteral("ssdlite320_mobilenet_v3_large.onnx");
        QTest::addRow("fasterrcnn") << QStringLiteral("fasterrcnn_mobilenet_v3_large_320_fpn.onnx");
    }
    void noBlockRunsIntoTheFooter() {
        QFETCH(QString, model);
        const bpu::Session s = loadSession(model.toUtf8().constData());
        const auto doc = buildDoc(s);
        QTemporaryDir dir;
        const auto stats = bpu::ui::writeReportPdf(doc, bpu::ui::renderReportCharts(doc),
                                                   dir.filePath(QStringLiteral("r.pdf")));
        QVERIFY(stats.pages >= 8);
        QCOMPARE(stats.overflows, 0);
    }

    void longValuesFlowAcrossPages() {
        if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
            QSKIP("pdftotext not installed (poppler-utils)");
        bpu::report::ReportDocument doc;
        doc.title = "flow test";
        doc.modelName = "flow";
        bpu::report::Section sec;
        sec.id = "f";
        sec.number = 1;
        sec.title = "Long values";
        std::string longValue;
        for (int i = 0; i < 2500; ++i)
            longValue += "w" + std::to_string(i) + " ";
        sec.blocks.push_back(bpu::report::KeyValues{"Block", {{"Short", "one line"}, {"Long", longValue}}});
        sec.blocks.push_back(bpu::report::Paragraph{"after the long value"});
        doc.sections.push_back(sec);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("f.pdf"));
        const auto stats = bpu::ui::writeReportPdf(doc, bpu::ui::renderReportCharts(doc), path);
        QVERIFY2(stats.pages >= 3, qPrintable(QString::number(stats.pages)));
        QCOMPARE(stats.overflows, 0);
        QProcess p;
        p.start(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(60000));
        const QString text = QString::fromUtf8(p.readAllStandardOutput()).simplified();
        // Every word of the value exactly once, in order, and what follows it after it.
        qsizetype at = 0;
        for (int i = 0; i < 2500; ++i) {
            const QString word = QStringLiteral(" w%1 ").arg(i);
            const qsizetype next = text.indexOf(word, at > 0 ? at - 1 : 0);
            QVERIFY2(next >= 0, qPrintable(word));
            QCOMPARE(text.count(word), 1);
            at = next + word.size();
        }
        QVERIFY(text.indexOf(QStringLiteral("after the long value")) >= at);
    }

    void exportReportsProgressAndCancelsMidway() {
        // Cancel once painting has started: the export stops, says so, and leaves no file behind.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mid.pdf"));
        static std::atomic<bool> stop{false};
        stop = false;
        std::mutex m;
        std::vector<std::string> stages;
        bpu::Progress progress;
        progress.cancel = &stop;
        progress.report = [&](double f, std::string_view stage) {
            std::lock_guard lock(m);
            stages.emplace_back(stage);
            if (f >= 0.5 && stage.rfind("painting", 0) == 0)
                stop = true;
        };
        QFutureWatcher<QString> watcher;
        watcher.setFuture(bpu::ui::exportReportPdf(buildDoc(*session_), path, progress));
        QTRY_VERIFY_WITH_TIMEOUT(watcher.isFinished(), 60000);
        QCOMPARE(watcher.result(), QStringLiteral("cancelled"));
        QVERIFY(!QFileInfo::exists(path));
        std::lock_guard lock(m);
        // It got as far as painting (so the layout stages reported) and stopped on the next check.
        QVERIFY(std::find(stages.begin(), stages.end(), std::string("laying out: Summary")) != stages.end());
        QVERIFY(std::find(stages.begin(), stages.end(), std::string("painting page 1")) != stages.end());
        QVERIFY(std::find(stages.begin(), stages.end(), std::string("painting page 2")) == stages.end());
        QVERIFY(std::find(stages.begin(), stages.end(), std::string("done")) == stages.end());
    }

    void exportCancels() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.pdf"));
        static std::atomic<bool> stop{true};
        bpu::Progress progress;
        progress.cancel = &stop;
        QFutureWatcher<QString> watcher;
        watcher.setFuture(bpu::ui::exportReportPdf(buildDoc(*session_), path, progress));
        QTRY_VERIFY_WITH_TIMEOUT(watcher.isFinished(), 60000);
        QCOMPARE(watcher.result(), QStringLiteral("cancelled"));
        QVERIFY(!QFileInfo::exists(path)); // QSaveFile never committed
    }

    void longTableRepeatsItsHeader() {
        if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
            QSKIP("pdftotext not installed (poppler-utils)");
        bpu::report::ReportDocument doc;
        doc.title = "table test";
        doc.modelName = "tables";
        bpu::report::Section sec;
        sec.id = "t";
        sec.number = 1;
        sec.title = "Long table";
        bpu::report::TableBlock tb;
        tb.caption = "Numbers";
        tb.table.headers = {"Index", "Name", "Value"};
        tb.table.align = {bpu::report::Align::Right, bpu::report::Align::Left, bpu::report::Align::Right};
        for (int i = 0; i < 300; ++i)
            tb.table.rows.push_back(
                {std::to_string(i), "row_" + std::to_string(i) + " \u540d\u79f0", std::to_string(i * 7)});
        sec.blocks.push_back(tb);
        doc.sections.push_back(sec);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.pdf"));
        bpu::ui::writeReportPdf(doc, bpu::ui::renderReportCharts(doc), path);
        QProcess p;
        p.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), path, QStringLiteral("-")});
        QVERIFY(p.waitForFinished(60000));
        const QStringList pages =
            QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\f'), Qt::SkipEmptyParts);
        QVERIFY2(pages.size() >= 4, qPrintable(QString::number(pages.size())));
        int seen = 0;
        for (const QString& page : pages) {
            // Every page that carries rows starts them with the header, and with "(continued)" after the
            // first.
            if (!page.contains(QStringLiteral("row_")))
                continue;
            QVERIFY(page.contains(QStringLiteral("Index")) && page.contains(QStringLiteral("Value")));
            if (seen++ > 0)
                QVERIFY(page.contains(QStringLiteral("Numbers (continued)")));
        }
        // Every row exactly once: none is lost or split at a page break.
        const QString all = pages.join(QString());
        for (int i = 0; i < 300; ++i)
            QCOMPARE(all.count(QStringLiteral("row_%1 ").arg(i)), 1);
    }

private:
    std::optional<bpu::Session> session_;
};

QTEST_MAIN(TestReportCharts)
#include "tst_report_charts.moc"
