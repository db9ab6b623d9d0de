// SPDX-License-Identifier: MIT
// The analysis on every sample in samples/ (whatever is there), and the `analyze` command's JSON, CSV and
// error contract.
#include "CliRun.h"
#include "OnnxFixtures.h"
#include "SampleFiles.h"

#include "core/advice/Advisor.h"
#include "core/analysis/Analyzer.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QFileInfo>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

namespace {

/// The first sample whose file name contains `part`, or the first sample when none does.
QString sampleLike(const std::string& part) {
    const std::vector<std::string> files = samples::sampleFiles();
    const auto it = std::find_if(files.begin(), files.end(),
                                 [&](const std::string& f) { return f.find(part) != std::string::npos; });
    return QString::fromStdString(samples::samplePath(it != files.end() ? *it : files.front()));
}

using clirun::Proc;
using clirun::runCli;

// RFC 4180 fields: quoted fields may hold commas, quotes ("") and newlines.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, any = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
            continue;
        }
        if (c == '"') {
            quoted = true;
            any = true;
        } else if (c == ',') {
            row.push_back(field);
            field.clear();
            any = true;
        } else if (c == '\n') {
            row.push_back(field);
            rows.push_back(row);
            row.clear();
            field.clear();
            any = false;
        } else {
            field += c;
            any = true;
        }
    }
    if (any) {
        row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

// The nodes[] keys the issue lists, in the CSV's column order.
const std::vector<std::string> kNodeColumns{
    "name",         "op",           "placement",           "placement_reason",
    "macs",         "padded_macs",  "input_bytes",         "output_bytes",
    "weight_bytes", "output_shape", "padded_output_shape", "padding_waste_bytes",
    "intensity",    "bound",        "fusion_group"};

} // namespace

class TestAnalysisSamples : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY2(samples::sampleFiles().size() >= 2, "samples/ holds the sample models"); }

    void everyNodePlaced_data() {
        QTest::addColumn<QString>("file");
        for (const std::string& f : samples::sampleFiles())
            QTest::newRow(f.c_str()) << QString::fromStdString(samples::samplePath(f));
    }

    void everyNodePlaced() {
        QFETCH(QString, file);
        const bpu::TargetProfile& t = *samples::s100();
        const bpu::Graph g = bpu::ModelImporter::load(file.toStdString());
        bpu::AnalysisResult r = bpu::Analyzer::analyze(g, t);
        bpu::Advisor::addFindings(g, t, {}, r);
        QCOMPARE(r.nodes.size(), g.nodes.size());
        int bpu = 0, cpu = 0, folded = 0, unknown = 0;
        for (const auto& n : g.nodes) {
            const auto& a = r.nodes[n.id.value];
            const std::string p = bpu::placementName(a.placement);
            QVERIFY2(p == "BPU" || p == "CPU" || p == "folded", n.name.c_str());
            QVERIFY2(!a.placementReason.str().empty(), n.name.c_str());
            if (a.opClass == bpu::OpClass::Unknown) {
                // Not guessed: CPU with the reason and a warning the user can act on (override).
                ++unknown;
                QCOMPARE(p, std::string("CPU"));
                QVERIFY2(a.placementReason.str().find("not in the operator table") != std::string::npos,
                         n.name.c_str());
                QVERIFY2(std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                                     [&](const bpu::Diagnostic& d) {
                                         return d.text.find("'" + n.name + "'") != std::string::npos;
                                     }),
                         n.name.c_str());
            }
            bpu += a.placement == bpu::Placement::BPU;
            cpu += a.placement == bpu::Placement::CPU;
            folded += a.placement == bpu::Placement::Folded;
            if (a.placement == bpu::Placement::BPU)
                QVERIFY2(a.segment >= 0, n.name.c_str());
        }
        QCOMPARE(r.summary.unknownOps, unknown);
        // The backbones and heads the operator table is written for know every op; only detectors exported
        // with their post-processing (NMS, box decoding) reach ops the table does not list.
        const QString base = QFileInfo(file).baseName();
        if (!base.contains(QStringLiteral("rcnn")) && !base.contains(QStringLiteral("ssd")))
            QVERIFY2(unknown == 0, qPrintable(base));
        QCOMPARE(r.summary.bpuNodes, bpu);
        QCOMPARE(r.summary.cpuNodes, cpu);
        QCOMPARE(r.summary.foldedNodes, folded);
        QCOMPARE(bpu + cpu + folded, int(g.nodes.size()));
        QVERIFY(r.summary.bpuSegments >= 1);
        QVERIFY(r.summary.paddingWasteRatio >= 0 && r.summary.paddingWasteRatio < 1);
        // Every sample but the QAT exports is a plain float export (the QAT ones carry their Q/DQ
        // explicitly). Under the default deployment (--fast-perf) an image input arrives as nv12 and the
        // outputs stay quantized: no pass at the model's I/O; with float model I/O the CPU quantizes every
        // input and dequantizes every output.
        if (base.endsWith(QStringLiteral("_qat"))) {
            QVERIFY(r.qdqFormat);
            QVERIFY(r.summary.qdqNodes > 0);
        } else {
            QCOMPARE(r.summary.qdqNodes, 0);
        }
        for (const auto& p : r.qdq)
            QVERIFY2(p.where != "model input" && p.where != "model output", p.where.c_str());
        bpu::AnalysisOptions floatIo;
        floatIo.deploy = bpu::DeploySettings::keepIoQdq();
        const bpu::AnalysisResult f = bpu::Analyzer::analyze(g, t, floatIo);
        QVERIFY(f.summary.qdqPasses >= int(g.inputs.size() + g.outputs.size()));
        static const std::set<std::string> rules{"G1.1", "G1.2", "G3",   "G4.1", "G4.2", "G4.3",
                                                 "G6.1", "G6.2", "G6.3", "G6.4", "G6.5", "G6.6"};
        QVERIFY(!r.findings.empty());
        for (const auto& f : r.findings) {
            QVERIFY2(rules.count(bpu::ruleName(f.rule)), bpu::ruleName(f.rule));
            QVERIFY(!f.estimatedGainMs);
        }
    }

    // torch shares equal initializers through Identity nodes (mobilenet_v2's conv biases, resnet50's and
    // efficientnet_b0's folded weights): behind the Identity it is still a weight. Every BPU conv's
    // weight_bytes counts each constant input at int8 (one byte per element), and none of them is padded or
    // counted as a feature map; input_bytes is the padded data input alone. The test traces Identity chains
    // itself.
    void identitySharedWeightsAreWeights_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"mobilenet_v2", "resnet50", "efficientnet_b0"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void identitySharedWeightsAreWeights() {
        QFETCH(QString, name);
        const bpu::TargetProfile& t = *samples::s100();
        const bpu::Graph g = bpu::ModelImporter::load(samples::samplePath(name.toStdString() + ".onnx"));
        const bpu::AnalysisResult r = bpu::Analyzer::analyze(g, t);
        int throughIdentity = 0;
        for (const auto& n : g.nodes) {
            const bpu::NodeAnalysis& a = r.nodes[n.id.value];
            if (n.opType != "Conv" || a.placement != bpu::Placement::BPU)
                continue;
            int64_t weights = 0;
            for (size_t i = 1; i < n.inputs.size(); ++i) {
                bpu::TensorId src = n.inputs[i];
                while (g.tensor(src).producer.valid() && g.node(g.tensor(src).producer).opType == "Identity")
                    src = g.node(g.tensor(src).producer).inputs[0];
                QVERIFY2(g.tensor(src).isInitializer, n.name.c_str());
                throughIdentity += src != n.inputs[i];
                weights += g.tensor(n.inputs[i]).shape.elements().value_or(0);
                QVERIFY2(!r.tensors[n.inputs[i].value].padded.applies, g.tensor(n.inputs[i]).name.c_str());
            }
            QCOMPARE(a.weightBytes, weights);
            QCOMPARE(a.inputBytes, r.tensors[n.inputs[0].value].paddedBytes);
        }
        QVERIFY2(throughIdentity > 0, "the sample shares initializers through Identity nodes");
    }

    // The image input is not a conv feature map: the runtime keeps its 3 channels (S100 runtime alignment
    // rule), so no model gets the generic G4.2 "90% padding" finding on its RGB input, and the first conv
    // packs C x taps into one reduction aligned to 32 instead of padding C 3 -> 32 for every tap. By hand:
    //   yolov8n  /model.0/conv  3x3, 3 -> 16 at 320x320: output pads to 32 x 320 x 320 = 3,276,800; x 32
    //            (27 -> 32) = 104,857,600 padded MACs (not 3,276,800 x 32 x 9 = 943,718,400, 21x the real)
    //   resnet50 /conv1         7x7, 3 -> 64 at 112x112: 64 x 112 x 112 = 802,816 (aligned); x 160
    //            (147 -> 160) = 128,450,560
    void imageInputIsNotAFeatureMap_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("conv");
        QTest::addColumn<qint64>("paddedMacs");
        QTest::newRow("yolov8n") << "yolov8n"
                                 << "images"
                                 << "/model.0/conv/Conv" << qint64(104'857'600);
        QTest::newRow("resnet50") << "resnet50"
                                  << "input"
                                  << "/conv1/Conv" << qint64(128'450'560);
    }
    void imageInputIsNotAFeatureMap() {
        QFETCH(QString, name);
        QFETCH(QString, input);
        QFETCH(QString, conv);
        QFETCH(qint64, paddedMacs);
        const bpu::TargetProfile& t = *samples::s100();
        const bpu::Graph g = bpu::ModelImporter::load(samples::samplePath(name.toStdString() + ".onnx"));
        bpu::AnalysisResult r = bpu::Analyzer::analyze(g, t);
        bpu::Advisor::addFindings(g, t, {}, r);
        const bpu::TensorId in = g.findTensor(input.toStdString());
        QVERIFY(in.valid() && g.tensor(in).isGraphInput);
        const bpu::PaddedShape& p = r.tensors[in.value].padded;
        QCOMPARE(p.rule, bpu::PadRule::Input);
        QCOMPARE(p.dims[1], int64_t(3));
        QVERIFY(!r.findings.empty());
        for (const auto& f : r.findings)
            QVERIFY2(f.evidence.value("tensor", std::string()) != input.toStdString(), f.title.c_str());
        const bpu::NodeId c = g.findNode(conv.toStdString());
        QVERIFY(c.valid());
        QCOMPARE(r.nodes[c.value].paddedMacs, int64_t(paddedMacs));
    }

    // A layer gets one recommendation: ResNet's layer4 convs are memory-bound with >= 256 input channels
    // (G6.1: group conv) and their weights exceed 1 MiB (G6.3: large weights, also "use group conv"). No node
    // is in both; the G6.1 finding carries the large-weight evidence instead.
    void oneRecommendationPerLayer_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"resnet50", "resnet152"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void oneRecommendationPerLayer() {
        QFETCH(QString, name);
        const bpu::TargetProfile& t = *samples::s100();
        const bpu::Graph g = bpu::ModelImporter::load(samples::samplePath(name.toStdString() + ".onnx"));
        bpu::AnalysisResult r = bpu::Analyzer::analyze(g, t);
        bpu::Advisor::addFindings(g, t, {}, r);
        std::map<uint32_t, std::set<std::string>> rulesOf;
        int merged = 0;
        for (const auto& f : r.findings) {
            if (f.rule != bpu::RuleId::G6_1 && f.rule != bpu::RuleId::G6_3)
                continue;
            for (bpu::NodeId n : f.nodes)
                rulesOf[n.value].insert(bpu::ruleName(f.rule));
            if (f.rule == bpu::RuleId::G6_1 && f.evidence.contains("large_weights")) {
                ++merged;
                QCOMPARE(f.evidence["large_weights"]["weight_bytes"].get<int64_t>(),
                         r.nodes[f.nodes[0].value].weightBytes);
                QVERIFY(r.nodes[f.nodes[0].value].weightBytes >= int64_t(t.largeWeightBytes.value));
            }
        }
        for (const auto& [node, rules] : rulesOf)
            QVERIFY2(rules.size() == 1, g.nodes[node].name.c_str());
        QVERIFY2(merged > 0, "the layer4 convs are both memory-bound group-conv candidates and large-weight");
    }

    void analyzeJsonContract() {
        const QString file = sampleLike("mobilenet");
        Proc p = runCli({QStringLiteral("analyze"), file, QStringLiteral("--json"), QStringLiteral("-")});
        QCOMPARE(p.exitCode, 0);
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(p.out.toStdString());
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        // stderr holds the result's diagnostics and nothing else, each once, in the JSON's order (issue 42).
        QStringList expected;
        for (const auto& d : j["diagnostics"])
            expected << QStringLiteral("bpuscope: %1: %2: %3")
                            .arg(QString::fromStdString(d["severity"].get<std::string>()),
                                 QString::fromStdString(d["file"].get<std::string>()),
                                 QString::fromStdString(d["text"].get<std::string>()));
        QVERIFY(!expected.isEmpty()); // a graph-only sample: its weights are absent, a note
        QCOMPARE(QString::fromUtf8(p.err).split(QLatin1Char('\n'), Qt::SkipEmptyParts), expected);
        QCOMPARE(j["schema"].get<std::string>(), std::string("bpuscope.analysis/1"));
        QVERIFY(j["model"].is_object());
        QVERIFY(j["target"].is_object());
        QCOMPARE(j["target"]["name"].get<std::string>(), std::string("s100"));
        for (const char* k : {"bpu_nodes", "cpu_nodes", "folded_nodes", "bpu_segments", "qdq_nodes",
                              "padding_waste_bytes", "padding_waste_ratio", "fused_groups", "missed_fusions"})
            QVERIFY2(j["summary"].contains(k), k);
        QVERIFY(j["nodes"].is_array() && !j["nodes"].empty());
        const bpu::Graph g = bpu::ModelImporter::load(file.toStdString());
        QCOMPARE(j["nodes"].size(), g.nodes.size());
        const int counted = j["summary"]["bpu_nodes"].get<int>() + j["summary"]["cpu_nodes"].get<int>() +
                            j["summary"]["folded_nodes"].get<int>();
        QCOMPARE(counted, int(g.nodes.size()));
        for (const auto& n : j["nodes"]) {
            for (const auto& k : kNodeColumns)
                QVERIFY2(n.contains(k), (k + " missing in " + n.dump()).c_str());
            const std::string place = n["placement"].get<std::string>();
            QVERIFY(place == "BPU" || place == "CPU" || place == "folded");
            QVERIFY(n["output_shape"].is_array() || n["output_shape"].is_null());
            QVERIFY(n["padded_output_shape"].is_array() || n["padded_output_shape"].is_null());
            QVERIFY(n["fusion_group"].is_number_integer() || n["fusion_group"].is_null());
            const std::string bound = n["bound"].get<std::string>();
            QVERIFY2(bound == "compute" || bound == "memory" || bound == "-", bound.c_str());
            if (n["padded_output_shape"].is_array()) {
                // Padding never shrinks a dim.
                QCOMPARE(n["padded_output_shape"].size(), n["output_shape"].size());
                for (size_t i = 0; i < n["output_shape"].size(); ++i)
                    QVERIFY(n["padded_output_shape"][i].get<int64_t>() >=
                            n["output_shape"][i].get<int64_t>());
            }
        }
        for (const auto& f : j["findings"]) {
            for (const char* k :
                 {"rule", "severity", "title", "nodes", "evidence", "recommendation", "estimated_gain_ms"})
                QVERIFY2(f.contains(k), k);
            // null until the cost engine estimates the fix; never a made-up number.
            QVERIFY(f["estimated_gain_ms"].is_null() || f["estimated_gain_ms"].is_number());
        }
    }

    void analyzeCsvContract() {
        const QString file = sampleLike("yolov8n");
        const QString csvPath = QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/analysis.csv");
        const QString jsonPath =
            QString::fromStdString(fixtures::tempDir()) + QStringLiteral("/analysis.json");
        Proc p = runCli({QStringLiteral("analyze"), file, QStringLiteral("--csv"), csvPath,
                         QStringLiteral("--json"), jsonPath});
        QCOMPARE(p.exitCode, 0);
        QFile f(csvPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto rows = parseCsv(f.readAll().toStdString());
        QFile jf(jsonPath);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const nlohmann::json j = nlohmann::json::parse(jf.readAll().toStdString());
        const bpu::Graph g = bpu::ModelImporter::load(file.toStdString());

        // Header: the columns first, in order; any further column (the cost engine's) is a nodes[]
        // key too, but the last: `complete`, the result's, which is the JSON's top-level key (issue 42).
        QCOMPARE(rows.size(), g.nodes.size() + 1);
        const auto& header = rows[0];
        QVERIFY(header.size() >= kNodeColumns.size());
        QCOMPARE(std::vector<std::string>(header.begin(), header.begin() + kNodeColumns.size()),
                 kNodeColumns);
        QCOMPARE(header.back(), std::string("complete"));
        for (size_t c = 0; c + 1 < header.size(); ++c)
            QVERIFY2(j["nodes"][0].contains(header[c]), header[c].c_str());

        // One row per node, in the JSON's order, with the same values.
        std::set<std::string> names;
        for (size_t i = 1; i < rows.size(); ++i) {
            const auto& row = rows[i];
            const nlohmann::json& n = j["nodes"][i - 1];
            QVERIFY2(row.size() == header.size(), row.empty() ? "" : row[0].c_str());
            QCOMPARE(row[0], n["name"].get<std::string>());
            QCOMPARE(row[1], n["op"].get<std::string>());
            QCOMPARE(row[2], n["placement"].get<std::string>());
            QCOMPARE(row[3], n["placement_reason"].get<std::string>());
            QCOMPARE(row[4], std::to_string(n["macs"].get<int64_t>()));
            QCOMPARE(row[5], std::to_string(n["padded_macs"].get<int64_t>()));
            QCOMPARE(row[8], std::to_string(n["weight_bytes"].get<int64_t>()));
            QCOMPARE(row[13], n["bound"].get<std::string>());
            QCOMPARE(row.back(), std::string(j["complete"].get<bool>() ? "true" : "false"));
            names.insert(row[0]);
        }
        QCOMPARE(names.size(), g.nodes.size());
        for (const auto& n : g.nodes)
            QVERIFY2(names.count(n.name), n.name.c_str());

        // --csv - writes the same table to stdout.
        Proc s = runCli({QStringLiteral("analyze"), file, QStringLiteral("--csv"), QStringLiteral("-")});
        QCOMPARE(s.exitCode, 0);
        QCOMPARE(parseCsv(s.out.toStdString()), rows);
    }

    void badInputExitsThree() {
        const std::string path =
            fixtures::writeBytes("not_a_model.onnx", "this is not a protobuf\n\x01\x02\xff");
        Proc p = runCli({QStringLiteral("analyze"), QString::fromStdString(path)});
        QCOMPARE(p.exitCode, 3);
        const QString err = QString::fromUtf8(p.err);
        QVERIFY2(err.startsWith(QStringLiteral("bpuscope: error: ") + QString::fromStdString(path) +
                                QStringLiteral(": ")),
                 qPrintable(err));
        QVERIFY(p.out.isEmpty());

        const std::string text = fixtures::writeBytes("notes.txt", "hello");
        Proc t = runCli({QStringLiteral("analyze"), QString::fromStdString(text), QStringLiteral("--json"),
                         QStringLiteral("-")});
        QCOMPARE(t.exitCode, 3);
        QVERIFY2(QString::fromUtf8(t.err).startsWith(QStringLiteral("bpuscope: error: ") +
                                                     QString::fromStdString(text)),
                 t.err.constData());

        Proc missing = runCli({QStringLiteral("analyze"), QStringLiteral("/nonexistent/model.onnx")});
        QCOMPARE(missing.exitCode, 3);
        QVERIFY(QString::fromUtf8(missing.err)
                    .startsWith(QStringLiteral("bpuscope: error: /nonexistent/model.onnx")));

        Proc usage = runCli({QStringLiteral("analyze")});
        QCOMPARE(usage.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestAnalysisSamples)
#include "tst_analysis_samples.moc"
