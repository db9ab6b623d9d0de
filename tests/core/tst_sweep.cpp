// SPDX-License-Identifier: MIT
// `sweep`: a folder of models in one table. Each row must equal what `analyze` says of that model alone
// (the same engine, run independently), a bad file gets its own error row without stopping the sweep, and
// the exit code tells CI whether any row failed.
#include "CliRun.h"
#include "TestPaths.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <map>
#include <sstream>

namespace {

using clirun::Proc;

/// bpuscope-cli with `args`; a sweep over every sample gets ten minutes.
Proc runCli(const QStringList& args) {
    return clirun::runCli(args, 600000);
}

/// Rows of a CSV without quoted commas (the sweep quotes only titles and errors, read by column name here).
std::vector<std::map<std::string, std::string>> readCsv(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    std::istringstream in(f.readAll().toStdString());
    std::string line;
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
    auto split = [](const std::string& l) {
        std::vector<std::string> out;
        std::string field;
        bool quoted = false;
        for (size_t i = 0; i < l.size(); ++i) {
            const char c = l[i];
            if (quoted && c == '"' && i + 1 < l.size() && l[i + 1] == '"')
                field += '"', ++i;
            else if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted)
                out.push_back(field), field.clear();
            else
                field += c;
        }
        out.push_back(field);
        return out;
    };
    while (std::getline(in, line)) {
        if (header.empty()) {
            header = split(line);
            continue;
        }
        const auto fields = split(line);
        std::map<std::string, std::string> row;
        for (size_t i = 0; i < header.size() && i < fields.size(); ++i)
            row[header[i]] = fields[i];
        rows.push_back(row);
    }
    return rows;
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT

private slots:
    // Every sample, two jobs: one ok row per model, each row's figures equal to `analyze --json` of that
    // model.
    void samplesFolder() {
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("sweep.csv")),
                      html = dir.filePath(QStringLiteral("sweep.html"));
        const Proc p = runCli({QStringLiteral("sweep"), QString::fromStdString(bpu::test::samplesDir()),
                               QStringLiteral("--jobs"), QStringLiteral("2"), QStringLiteral("--csv"), csv,
                               QStringLiteral("--html"), html});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        const QStringList models = QDir(QString::fromStdString(bpu::test::samplesDir()))
                                       .entryList({QStringLiteral("*.onnx")}, QDir::Files, QDir::Name);
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), size_t(models.size()));
        for (int i = 0; i < models.size(); ++i) {
            QVERIFY(
                QString::fromStdString(rows[i].at("model")).endsWith(models[i])); // sorted like the folder
            QCOMPARE(rows[i].at("status"), std::string("ok"));
            QCOMPARE(rows[i].at("target"), std::string("s100"));
        }
        // Progress: one line per row on stderr.
        QCOMPARE(p.err.count("] "), qsizetype(models.size()));
        QFile page(html);
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QByteArray text = page.readAll();
        for (const QString& m : models)
            QVERIFY2(text.contains(m.toUtf8()), qPrintable(m));
        QVERIFY(text.contains("0 failed"));

        // Spot-check two rows against `analyze` of the same model on its own.
        for (const char* name : {"yolov8n.onnx", "shufflenet_v2_x1_0.onnx"}) {
            const Proc a =
                runCli({QStringLiteral("analyze"),
                        QString::fromStdString(bpu::test::samplesDir() + "/") + QLatin1String(name),
                        QStringLiteral("--json"), QStringLiteral("-")});
            QCOMPARE(a.exitCode, 0);
            const auto j = nlohmann::json::parse(a.out.toStdString());
            const auto& row = rows[size_t(models.indexOf(QLatin1String(name)))];
            // The CSV prints 4 decimals.
            QVERIFY(std::fabs(std::stod(row.at("latency_ms")) - j["summary"]["latency_ms"].get<double>()) <=
                    0.51e-4);
            QCOMPARE(std::stoi(row.at("cpu_nodes")), j["summary"]["cpu_nodes"].get<int>());
            QCOMPARE(std::stoi(row.at("bpu_segments")), j["summary"]["bpu_segments"].get<int>());
            QCOMPARE(row.at("top_finding_rule"), j["findings"][0]["rule"].get<std::string>());
        }
    }

    // Two targets over a folder holding a good model, a truncated one and a text file named .onnx: every good
    // row is there for both targets, each bad file has one error row per target naming it, exit code 1.
    void badFilesGetErrorRows() {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QString::fromStdString(bpu::test::samplesDir() + "/resnet50.onnx"),
                            dir.filePath(QStringLiteral("a_good.onnx"))));
        QFile src(QString::fromStdString(bpu::test::samplesDir() + "/resnet50.onnx"));
        QVERIFY(src.open(QIODevice::ReadOnly));
        QFile cut(dir.filePath(QStringLiteral("b_truncated.onnx")));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(src.read(src.size() / 2));
        cut.close();
        QFile text(dir.filePath(QStringLiteral("c_text.onnx")));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("not a model\n");
        text.close();
        const QString csv = dir.filePath(QStringLiteral("out.csv"));
        const Proc p =
            runCli({QStringLiteral("sweep"), dir.path(), QStringLiteral("--target"), QStringLiteral("s100"),
                    QStringLiteral("--target"), QStringLiteral("s100p"), QStringLiteral("--csv"), csv});
        QCOMPARE(p.exitCode, 1);
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), size_t(6)); // 3 files x 2 targets, model-major
        const std::vector<std::pair<std::string, std::string>> expected{
            {"a_good.onnx", "s100"},       {"a_good.onnx", "s100p"}, {"b_truncated.onnx", "s100"},
            {"b_truncated.onnx", "s100p"}, {"c_text.onnx", "s100"},  {"c_text.onnx", "s100p"}};
        for (size_t i = 0; i < rows.size(); ++i) {
            QVERIFY(QString::fromStdString(rows[i].at("model"))
                        .endsWith(QString::fromStdString(expected[i].first)));
            QCOMPARE(rows[i].at("target"), expected[i].second);
            const bool good = i < 2;
            QCOMPARE(rows[i].at("status"), std::string(good ? "ok" : "failed"));
            if (!good)
                QVERIFY2(rows[i].at("error").find(expected[i].first) != std::string::npos,
                         rows[i].at("error").c_str());
        }
        // S100P is the faster part (more TOPS, same model): its row is faster.
        QVERIFY(std::stod(rows[1].at("latency_ms")) < std::stod(rows[0].at("latency_ms")));
        QVERIFY(p.err.contains("FAILED"));
    }

    void usageAndBadInput() {
        QCOMPARE(runCli({QStringLiteral("sweep")}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("sweep"), QString::fromStdString(bpu::test::samplesDir()),
                         QStringLiteral("--jobs"), QStringLiteral("0")})
                     .exitCode,
                 2);
        const Proc t = runCli({QStringLiteral("sweep"), QString::fromStdString(bpu::test::samplesDir()),
                               QStringLiteral("--target"), QStringLiteral("/nonexistent/profile.json")});
        QCOMPARE(t.exitCode, 3);
        QTemporaryDir empty;
        const Proc e = runCli({QStringLiteral("sweep"), empty.path()});
        QCOMPARE(e.exitCode, 3);
        QVERIFY(e.err.contains("no .onnx files"));
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
