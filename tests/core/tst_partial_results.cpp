// SPDX-License-Identifier: MIT
// Issue 42: a result that rests on unresolved input dims says PARTIAL first, in every output, and every
// diagnostic reaches a person. The model is written here: x [1, 3, height, width] -> Conv 3x3 -> Relu ->
// GlobalAveragePool -> y. With H and W unresolved the conv and the relu have no shape (their output is
// [1, 8, ?, ?]); the pool's output is [1, 8, 1, 1] whatever H and W are (onnx's own inference), so 2 of the
// 3 nodes are guesses.
#include "CliRun.h"
#include "OnnxFixtures.h"

#include "core/model/Completeness.h"
#include "core/model/ModelImporter.h"

#include <QFile>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <set>

namespace {

std::string dynamicModel() {
    fixtures::ModelBuilder b;
    b.input("x", {1, 3, -1, -1});
    auto* shape = b.graph().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
    shape->mutable_dim(2)->set_dim_param("height");
    shape->mutable_dim(3)->set_dim_param("width");
    b.weight("w", {8, 3, 3, 3});
    auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
    fixtures::setInts(conv, "pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("GlobalAveragePool", {"r"}, {"y"}, "pool");
    b.output("y");
    return b.save("dynamic_hw.onnx");
}

const char* kReason = "input 'x' has unresolved dims 2 ('height'), 3 ('width')";

// Issue 61: tests/data/baked/make_fixtures.py draws it. Resize's sizes are Concat(Slice(Shape(.)), the
// Constant [32, 32]) as torch traces F.interpolate at 64x64: every shape is known at 64x64; at 48x48 the stem
// gives 24x24, the Resize still 32x32, and the Concat joining them ('cat') cannot be inferred, nor 'head'
// behind it (the file's declared output 1x4x32x32 was traced at 64 and no longer counts).
QString bakedModel() {
    return QString::fromStdString(bpu::test::testDataDir() + "/baked/baked_resize.onnx");
}
const QStringList kAt48{QStringLiteral("--input-shape"), QStringLiteral("x=1x3x48x48")};
const char* kStops = "shape inference stops at 'cat' (Concat)";

} // namespace

class TestPartialResults : public QObject {
    Q_OBJECT
    std::string model_;

private slots:
    void initTestCase() { model_ = dynamicModel(); }

    void completenessOfTheGraph() {
        const bpu::Graph g = bpu::ModelImporter::load(model_);
        const bpu::Completeness c = bpu::completeness(g);
        QVERIFY(!c.complete());
        QCOMPARE(c.reasons.size(), size_t(1));
        QCOMPARE(c.reasons[0], std::string(kReason));
        QCOMPARE(c.inputs, std::vector<std::string>{"x"});
        QCOMPARE(c.nodesWithoutShape, 2); // conv and relu; the pool's [1, 8, 1, 1] is known
        QCOMPARE(c.nodes, 3);
        QVERIFY(c.summary().find("2 of 3 nodes have no inferred shape") != std::string::npos);

        bpu::ImportOptions opt;
        opt.inputShapes["x"] = {1, 3, 64, 64};
        const bpu::Graph resolved = bpu::ModelImporter::load(model_, opt);
        QVERIFY(bpu::completeness(resolved).complete());
        QVERIFY(bpu::completeness(resolved).summary().empty());
    }

    // The text output's first line, each diagnostic once on stderr, the JSON's flags.
    void analyzeSaysPartialFirst() {
        const QString model = QString::fromStdString(model_);
        const auto r = clirun::runCli({QStringLiteral("analyze"), model});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out), err = QString::fromUtf8(r.err);
        QVERIFY2(out.startsWith(QStringLiteral("PARTIAL: ") + QString::fromUtf8(kReason)), qPrintable(out));
        QVERIFY2(out.section(QLatin1Char('\n'), 0, 0).endsWith(QStringLiteral("pass --input-shape x=...")),
                 qPrintable(out));
        // The warnings come before any figure.
        const qsizetype warning =
            out.indexOf(QStringLiteral("warning: input 'x' dim 2 ('height') is unresolved"));
        QVERIFY2(warning > 0 && warning < out.indexOf(QStringLiteral("latency:")), qPrintable(out));
        const QString line = QStringLiteral("bpuscope: warning: ") + model +
                             QStringLiteral(": input 'x' dim 2 ('height') is unresolved");
        QCOMPARE(err.count(line), 1);
        QCOMPARE(err.count(QStringLiteral("dim 3 ('width') is unresolved")), 1);
    }

    void analyzeJsonCarriesTheFlags() {
        const QString model = QString::fromStdString(model_);
        // Two outputs (JSON on stdout, CSV to a file): the warnings still reach stderr once each.
        const QString csv = QString::fromStdString(fixtures::tempDir() + "/partial.csv");
        const auto r = clirun::runCli({QStringLiteral("analyze"), model, QStringLiteral("--json"),
                                       QStringLiteral("-"), QStringLiteral("--csv"), csv});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.err).count(QStringLiteral("dim 2 ('height') is unresolved")), 1);
        const auto doc = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(doc["complete"].get<bool>(), false);
        QCOMPARE(doc["partial_reasons"], nlohmann::json::array({kReason}));
        QVERIFY(doc["partial_summary"].get<std::string>().find("2 of 3 nodes") != std::string::npos);
        QCOMPARE(doc["plan_summary"]["partial"].get<bool>(), true);
        // Issue 61, decision 4: the conv and the relu have no shape (the conv lands on the CPU for want of
        // one), so what a finding says of them is a guess: none is ranked, each is kept aside, and one note
        // counts them.
        const std::set<std::string> guessed{"conv", "relu"};
        for (const auto& list : {doc["findings"], doc["folded_findings"]})
            for (const auto& f : list)
                for (const auto& n : f["nodes"])
                    QVERIFY2(!guessed.count(n.get<std::string>()), f.dump().c_str());
        QVERIFY(!doc["findings_on_guesses"].empty());
        for (const auto& f : doc["findings_on_guesses"])
            QCOMPARE(f["partial"].get<bool>(), true);
        int unresolved = 0, onGuesses = 0;
        for (const auto& d : doc["diagnostics"]) {
            QVERIFY(d["severity"] == "warning" || d["severity"] == "note");
            QCOMPARE(d["file"].get<std::string>(), model_);
            unresolved += d["code"] == "input-dim-unresolved";
            if (d["code"] == "findings-on-guesses") {
                ++onGuesses;
                QVERIFY2(d["text"].get<std::string>().rfind(
                             std::to_string(doc["findings_on_guesses"].size()) + " finding", 0) == 0,
                         d.dump().c_str());
            }
        }
        QCOMPARE(unresolved, 2);
        QCOMPARE(onGuesses, 1);

        // Given the shape: complete, nothing partial, no PARTIAL line.
        const auto full =
            clirun::runCli({QStringLiteral("analyze"), model, QStringLiteral("--input-shape"),
                            QStringLiteral("x=1x3x64x64"), QStringLiteral("--json"), QStringLiteral("-")});
        QCOMPARE(full.exitCode, 0);
        const auto fullDoc = nlohmann::json::parse(full.out.toStdString());
        QCOMPARE(fullDoc["complete"].get<bool>(), true);
        QVERIFY(fullDoc["partial_reasons"].empty());
        QCOMPARE(fullDoc["plan_summary"]["partial"].get<bool>(), false);
        QVERIFY(!full.err.contains("unresolved"));
        const auto text = clirun::runCli({QStringLiteral("analyze"), model, QStringLiteral("--input-shape"),
                                          QStringLiteral("x=1x3x64x64")});
        QVERIFY2(text.out.startsWith("note: weights not present") || text.out.startsWith("model:"),
                 text.out.left(200).constData());
    }

    // The report says PARTIAL before its headline figures and lists the diagnostics on its first page, in
    // every format (step 2).
    void reportSaysPartialFirst_data() {
        QTest::addColumn<QString>("format");
        QTest::newRow("md") << QStringLiteral("md");
        QTest::newRow("html") << QStringLiteral("html");
        QTest::newRow("json") << QStringLiteral("json");
#ifdef BPUSCOPE_CLI_HAS_PDF
        QTest::newRow("pdf") << QStringLiteral("pdf");
#endif
    }
    void reportSaysPartialFirst() {
        QFETCH(QString, format);
        const QString model = QString::fromStdString(model_);
        const QString out =
            QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/partial.") + format;
        const auto r = clirun::runCli({QStringLiteral("report"), model, QStringLiteral("-o"), out});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(QString::fromUtf8(r.err).count(QStringLiteral("dim 2 ('height') is unresolved")), 1);
        const QString partial = QStringLiteral("PARTIAL: ") + QString::fromUtf8(kReason);
        if (format == QLatin1String("json")) {
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto doc = nlohmann::json::parse(f.readAll().toStdString());
            QCOMPARE(doc["complete"].get<bool>(), false);
            QVERIFY(doc["partial_summary"].get<std::string>().rfind(kReason, 0) == 0);
            bool unresolved = false;
            for (const auto& d : doc["diagnostics"])
                unresolved |= d["code"] == "input-dim-unresolved";
            QVERIFY(unresolved);
            return;
        }
        QString text;
        if (format == QLatin1String("pdf")) {
            const auto page = clirun::runProgram(
                QStringLiteral("pdftotext"), {QStringLiteral("-f"), QStringLiteral("1"), QStringLiteral("-l"),
                                              QStringLiteral("1"), out, QStringLiteral("-")});
            text = QString::fromUtf8(page.out).simplified();
        } else {
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            text = QString::fromUtf8(f.readAll()).simplified();
        }
        const qsizetype at = text.indexOf(partial);
        QVERIFY2(at >= 0, qPrintable(text.left(2000)));
        // Before the first headline figure, and the diagnostics on the same (first) page.
        const qsizetype figure = text.indexOf(QStringLiteral(" ms"));
        QVERIFY2(figure > at, qPrintable(text.left(2000)));
        QVERIFY2(text.contains(QStringLiteral("Warning: input 'x' dim 3 ('width') is unresolved")),
                 qPrintable(text.left(3000)));
    }

    // Step 3: a CI gate never passes on guessed shapes unless told to; CSV and sweep rows say complete.
    void failOnRefusesAPartialResult() {
        const QString model = QString::fromStdString(model_);
        const QStringList gate{QStringLiteral("analyze"),   model,
                               QStringLiteral("--fail-on"), QStringLiteral("fps<1"),
                               QStringLiteral("--json"),    QStringLiteral("-")};
        const auto partial = clirun::runCli(gate);
        QCOMPARE(partial.exitCode, 1); // fps<1 does not hold: only the partial result fails the gate
        QVERIFY2(
            partial.err.contains("bpuscope: --fail-on: the result is PARTIAL (input 'x' has unresolved dims"),
            partial.err.constData());
        QVERIFY(partial.err.contains("--allow-partial"));
        const auto allowed = clirun::runCli(gate + QStringList{QStringLiteral("--allow-partial")});
        QCOMPARE(allowed.exitCode, 0);
        QVERIFY(!allowed.err.contains("--fail-on"));
        const auto resolved = clirun::runCli(
            gate + QStringList{QStringLiteral("--input-shape"), QStringLiteral("x=1x3x64x64")});
        QCOMPARE(resolved.exitCode, 0);
        // Without --fail-on there is no gate to fail: a partial analyze still exits 0.
        QCOMPARE(clirun::runCli({QStringLiteral("analyze"), model}).exitCode, 0);
    }

    void csvRowsSayComplete() {
        const QString model = QString::fromStdString(model_);
        const auto csv =
            clirun::runCli({QStringLiteral("analyze"), model, QStringLiteral("--csv"), QStringLiteral("-")});
        QCOMPARE(csv.exitCode, 0);
        const QStringList lines = QString::fromUtf8(csv.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4); // the header and the three nodes
        QVERIFY2(lines[0].endsWith(QStringLiteral(",complete")), qPrintable(lines[0]));
        for (qsizetype i = 1; i < lines.size(); ++i)
            QVERIFY2(lines[i].endsWith(QStringLiteral(",false")), qPrintable(lines[i]));

        const auto sweep =
            clirun::runCli({QStringLiteral("sweep"), model, QStringLiteral("--csv"), QStringLiteral("-")});
        QCOMPARE(sweep.exitCode, 0);
        const QStringList rows = QString::fromUtf8(sweep.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 2);
        const QStringList header = rows[0].split(QLatin1Char(','));
        const qsizetype col = header.indexOf(QStringLiteral("complete"));
        QVERIFY2(col > 0 && header.indexOf(QStringLiteral("partial")) == col + 1, qPrintable(rows[0]));
        QVERIFY2(rows[1].contains(
                     QStringLiteral(",false,\"input 'x' has unresolved dims 2 ('height'), 3 ('width');")),
                 qPrintable(rows[1]));
        QVERIFY2(sweep.err.contains("PARTIAL: input 'x' has unresolved dims"), sweep.err.constData());
        const auto full =
            clirun::runCli({QStringLiteral("sweep"), model, QStringLiteral("--input-shape"),
                            QStringLiteral("x=1x3x64x64"), QStringLiteral("--csv"), QStringLiteral("-")});
        QVERIFY2(full.out.contains(",true,\n") || full.out.trimmed().endsWith(",true,"),
                 full.out.constData());
    }

    // compare: each side's diagnostics once on stderr, a partial side named PARTIAL.
    void compareNamesThePartialSide() {
        const QString model = QString::fromStdString(model_);
        const QString other = QString::fromStdString(bpu::test::samplesDir() + "/resnet18.onnx");
        const auto r = clirun::runCli({QStringLiteral("compare"), model, other});
        QCOMPARE(r.exitCode, 0);
        const QString err = QString::fromUtf8(r.err);
        QCOMPARE(err.count(QStringLiteral("bpuscope: warning: ") + model + QStringLiteral(": PARTIAL: ") +
                           QString::fromUtf8(kReason)),
                 1);
        QCOMPARE(err.count(QStringLiteral("dim 2 ('height') is unresolved")), 1);
        QVERIFY(!err.contains(other + QStringLiteral(": PARTIAL")));
    }

    // Decision 3: partial when inference stops at a node with every input known, not only for an input.
    void completenessWhereInferenceStops() {
        const bpu::Graph own = bpu::ModelImporter::load(bakedModel().toStdString());
        QVERIFY(bpu::completeness(own).complete());
        QCOMPARE(bpu::completeness(own).nodesWithoutShape, 0);

        bpu::ImportOptions opt;
        opt.inputShapes["x"] = {1, 3, 48, 48};
        const bpu::Graph g = bpu::ModelImporter::load(bakedModel().toStdString(), opt);
        const bpu::Completeness c = bpu::completeness(g);
        QVERIFY(!c.complete());
        QVERIFY(c.inputsResolved());
        // Where it stops, and the Resize whose traced [32, 32] no longer fits (issue 61, step 2).
        const std::string why = std::string(kStops) +
                                ": the export fixed the size at 'upsample' (Resize sizes "
                                "1x8x32x32); export with a dynamic size, or at this input size";
        QCOMPARE(c.reasons, std::vector<std::string>{why});
        QCOMPARE(c.stoppedAt, std::vector<std::string>{"cat"});
        QCOMPARE(c.bakedAt, std::vector<std::string>{"upsample"});
        QCOMPARE(c.nodesWithoutShape, 2);
        QCOMPARE(c.withoutShape, (std::vector<std::string>{"cat", "head"}));
        QCOMPARE(c.nodes, 11);
        QCOMPARE(c.summary(),
                 why + "; 2 of 11 nodes have no inferred shape ('cat', 'head'), so their placement "
                       "and cost are guesses");
    }

    // Every command says PARTIAL first at 48x48 and nothing of it at the traced 64x64.
    void everyCommandSaysPartialWhereInferenceStops_data() {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("analyze") << QStringList{QStringLiteral("analyze")};
        QTest::newRow("info") << QStringList{QStringLiteral("info")};
    }
    void everyCommandSaysPartialWhereInferenceStops() {
        QFETCH(QStringList, command);
        const auto own = clirun::runCli(command + QStringList{bakedModel()});
        QCOMPARE(own.exitCode, 0);
        QVERIFY2(!own.out.contains("PARTIAL") && !own.err.contains("PARTIAL"), own.out.constData());
        const auto r = clirun::runCli(command + QStringList{bakedModel()} + kAt48);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QByteArray("PARTIAL: ")), r.out.constData());
        QVERIFY2(r.out.left(r.out.indexOf('\n')).contains(kStops), r.out.constData());
        // No input to name: the line offers no --input-shape.
        QVERIFY2(!r.out.left(r.out.indexOf('\n')).contains("--input-shape"), r.out.constData());
    }

    // Decision 4: 'cat' lands on the CPU only because it has no shape (at 64x64 every node is on the BPU),
    // so the findings about it rest on a guess: none is ranked, the JSON keeps them aside, one note counts.
    void noFindingRestsOnAGuessedNode() {
        const auto own = clirun::runCli(
            {QStringLiteral("analyze"), bakedModel(), QStringLiteral("--json"), QStringLiteral("-")});
        const auto ownDoc = nlohmann::json::parse(own.out.toStdString());
        QCOMPARE(ownDoc["summary"]["cpu_nodes"].get<int>(), 0);
        QVERIFY(ownDoc["findings_on_guesses"].empty());

        const auto r = clirun::runCli(QStringList{QStringLiteral("analyze"), bakedModel(),
                                                  QStringLiteral("--json"), QStringLiteral("-")} +
                                      kAt48);
        QCOMPARE(r.exitCode, 0);
        const auto doc = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(doc["complete"].get<bool>(), false);
        for (const auto& list : {doc["findings"], doc["folded_findings"]})
            for (const auto& f : list)
                for (const auto& n : f["nodes"])
                    QVERIFY2(n != "cat" && n != "head", f.dump().c_str());
        bool concatOnCpu = false;
        for (const auto& f : doc["findings_on_guesses"])
            concatOnCpu |= f["rule"] == "G1.2" && f["nodes"] == nlohmann::json::array({"cat"});
        QVERIFY2(concatOnCpu, doc["findings_on_guesses"].dump().c_str());
        QCOMPARE(QString::fromUtf8(r.err).count(QStringLiteral("findings are left out of the list")), 1);
        for (const auto& step : doc["plan"])
            QVERIFY2(step["rule"] != "G1.2", step.dump().c_str());
    }

    // One test per command the issue names: compare, sweep and export on a model with an unresolved dim and
    // on one whose inference stops at a node.
    void compareSaysPartial() {
        // The import options hold for both sides: at 48x48 the dynamic model (input 'x' too) is complete.
        const QString resnet = QString::fromStdString(bpu::test::samplesDir() + "/resnet18.onnx");
        for (const auto& [model, other, extra, why] :
             {std::tuple{QString::fromStdString(model_), resnet, QStringList{}, std::string(kReason)},
              std::tuple{bakedModel(), QString::fromStdString(model_), kAt48, std::string(kStops)}}) {
            const auto text = clirun::runCli(QStringList{QStringLiteral("compare"), other, model} + extra);
            QCOMPARE(text.exitCode, 0);
            // stdout's first line names the partial side (B) and why; A is complete.
            const QByteArray head = text.out.left(text.out.indexOf('\n'));
            QVERIFY2(head.startsWith("PARTIAL: B (" + model.toUtf8() + "): " + QByteArray(why.c_str())),
                     text.out.constData());
            QVERIFY2(!head.contains("A ("), head.constData());
            const auto json = clirun::runCli(QStringList{QStringLiteral("compare"), model, other,
                                                         QStringLiteral("--json"), QStringLiteral("-")} +
                                             extra);
            QCOMPARE(json.exitCode, 0);
            const auto doc = nlohmann::json::parse(json.out.toStdString());
            QCOMPARE(doc["complete"].get<bool>(), false);
            QCOMPARE(doc["a"]["complete"].get<bool>(), false);
            QVERIFY(doc["a"]["partial_summary"].get<std::string>().rfind(why, 0) == 0);
            QCOMPARE(doc["b"]["complete"].get<bool>(), true);
            QCOMPARE(doc["b"]["partial_summary"].get<std::string>(), std::string());
        }
    }

    void sweepSaysPartial() {
        for (const auto& [model, extra, why] :
             {std::tuple{QString::fromStdString(model_), QStringList{}, QByteArray(kReason)},
              std::tuple{bakedModel(), kAt48, QByteArray(kStops)}}) {
            const auto r = clirun::runCli(QStringList{QStringLiteral("sweep"), model} + extra);
            QCOMPARE(r.exitCode, 0);
            const QList<QByteArray> lines = r.out.split('\n');
            QVERIFY2(lines.size() > 3 && lines[0].startsWith("PARTIAL: 1 of 1 row"), r.out.constData());
            // The table's own column says it for the row, and a line below says why.
            const QList<QByteArray> header = lines[1].simplified().split(' ');
            const qsizetype col = header.indexOf("complete");
            QVERIFY2(col > 0, lines[1].constData());
            QCOMPARE(lines[2].simplified().split(' ').value(col), QByteArray("PARTIAL"));
            QVERIFY2(r.out.contains("PARTIAL: " + model.toUtf8() + " @ s100: " + why), r.out.constData());
        }
        const auto full = clirun::runCli({QStringLiteral("sweep"), bakedModel()});
        const QList<QByteArray> lines = full.out.split('\n');
        const qsizetype col = lines[0].simplified().split(' ').indexOf("complete");
        QVERIFY2(col > 0, full.out.constData());
        QCOMPARE(lines[1].simplified().split(' ').value(col), QByteArray("yes"));
    }

    void exportSaysPartial() {
        const QString out =
            QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/partial_export.onnx");
        for (const auto& [model, extra, why] :
             {std::tuple{QString::fromStdString(model_), QStringList{}, QByteArray(kReason)},
              std::tuple{bakedModel(), kAt48, QByteArray(kStops)}}) {
            const auto r = clirun::runCli(
                QStringList{QStringLiteral("export"), model, QStringLiteral("-o"), out} + extra);
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.err.contains("bpuscope: warning: " + model.toUtf8() + ": PARTIAL: " + why),
                     r.err.constData());
            QVERIFY2(r.out.contains(" - PARTIAL\n"), r.out.constData());
            // The plan's steps are chosen from findings that rest on no guess: a partial result's guessed
            // CPU node is not exported as a step (its finding is counted in the note instead).
            const auto plan =
                clirun::runCli(QStringList{QStringLiteral("export"), model, QStringLiteral("-o"), out,
                                           QStringLiteral("--plan"), QStringLiteral("1")} +
                               extra);
            QVERIFY2(plan.err.contains("PARTIAL: " + why), plan.err.constData());
            QVERIFY2(plan.err.contains("left out of the list"), plan.err.constData());
            QVERIFY2(!plan.out.contains("plan step: [G1.2]"), plan.out.constData());
        }
        const auto full = clirun::runCli({QStringLiteral("export"), bakedModel(), QStringLiteral("-o"), out});
        QCOMPARE(full.exitCode, 0);
        QVERIFY2(!full.err.contains("PARTIAL") && !full.out.contains("PARTIAL"), full.err.constData());
    }

    void infoSaysPartialFirst() {
        const QString model = QString::fromStdString(model_);
        const auto r = clirun::runCli({QStringLiteral("info"), model});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.startsWith(QByteArray("PARTIAL: ") + kReason), r.out.constData());
        QCOMPARE(QString::fromUtf8(r.err).count(QStringLiteral("dim 3 ('width') is unresolved")), 1);
        const auto json =
            clirun::runCli({QStringLiteral("info"), model, QStringLiteral("--json"), QStringLiteral("-")});
        const auto doc = nlohmann::json::parse(json.out.toStdString());
        QCOMPARE(doc["complete"].get<bool>(), false);
        QCOMPARE(doc["diagnostics"].size(), doc["warnings"].size());
    }
};

QTEST_GUILESS_MAIN(TestPartialResults)
#include "tst_partial_results.moc"
