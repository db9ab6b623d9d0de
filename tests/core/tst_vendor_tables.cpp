// SPDX-License-Identifier: MIT
// `analyze --node-info` and `--perf-json`: the vendor's column and field names filled with BpuScope's
// numbers. Expected values come from the guide's rules worked by hand on a tiny model, and from invariants
// the perf JSON must keep with the analysis JSON of the same run (layers add up to the BPU time; DDR bytes
// add up).
#include "CliRun.h"
#include "OnnxFixtures.h"
#include "TestPaths.h"

#include "core/analysis/AnalysisOptions.h"
#include "core/cost/CostModel.h"
#include "core/edit/Session.h"
#include "core/io/VendorTables.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using fixtures::ModelBuilder;

namespace {

using clirun::Proc;
using clirun::runCli;

std::vector<std::vector<std::string>> csvRows(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> row;
        std::string field;
        std::istringstream l(line);
        while (std::getline(l, field, ','))
            row.push_back(field);
        if (!line.empty() && line.back() == ',')
            row.push_back("");
        rows.push_back(row);
    }
    return rows;
}

/// "12.3 us (4.5% of model)" -> {12.3, 4.5}
std::pair<double, double> costOf(const std::string& text) {
    static const std::regex re(R"(^([0-9.]+) us \(([0-9.]+)% of model\)$)");
    std::smatch m;
    if (!std::regex_match(text, m, re))
        qFatal("not a cost text: %s", text.c_str());
    return {std::stod(m[1]), std::stod(m[2])};
}

} // namespace

class TestVendorTables : public QObject {
    Q_OBJECT

private slots:
    // conv1 -> relu1 -> CumSum -> conv2 -> relu2. By the s100 operator table Conv and Relu run on the BPU and
    // CumSum on the CPU; Conv+Relu is a fusion pattern (guide G3), so each Relu folds into its conv's layer
    // ("--"); the CPU op splits the BPU graph, so conv2 opens a second subgraph. The BPU writes int8 and the
    // CPU op float (its output dtype).
    void nodeInfoColumnsByHand() {
        ModelBuilder b;
        b.input("x", {1, 32, 16, 16});
        b.weight("w1", {32, 32, 3, 3});
        b.weight("w2", {32, 32, 3, 3});
        b.ints("axis", {1});
        b.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
        b.node("Relu", {"c1"}, {"r1"}, "relu1");
        b.node("CumSum", {"r1", "axis"}, {"s"}, "cumsum");
        b.node("Conv", {"s", "w2"}, {"c2"}, "conv2");
        b.node("Relu", {"c2"}, {"y"}, "relu2");
        b.output("y");
        for (auto* n : {b.graph().mutable_node(0), b.graph().mutable_node(3)}) {
            fixtures::setInts(*n, "pads", {1, 1, 1, 1});
            fixtures::setInts(*n, "kernel_shape", {3, 3});
        }
        bpu::Session s(bpu::ModelImporter::load(b.save("node_info.onnx")),
                       std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100")));
        const auto rows = csvRows(bpu::nodeInfoCsv(s.graph(), s.analysis()));
        const std::vector<std::vector<std::string>> expected{
            {"Node", "ON", "Subgraph", "Type", "Cosine Similarity", "Threshold", "DataType"},
            {"conv1", "BPU", "0", "Conv", "--", "--", "int8"},
            {"relu1", "--", "--", "Relu", "--", "--", "--"},
            // Issue 64: the passes the compiler inserts around the CPU op, each with a row of its own: r1
            // dequantized after relu1 writes it, s quantized before conv2 reads it.
            {"r1_dequantize", "CPU", "--", "Dequantize", "--", "--", "float"},
            {"cumsum", "CPU", "--", "CumSum", "--", "--", "float"},
            {"s_quantize", "CPU", "--", "Quantize", "--", "--", "int8"},
            {"conv2", "BPU", "1", "Conv", "--", "--", "int8"},
            {"relu2", "--", "--", "Relu", "--", "--", "--"},
        };
        QCOMPARE(rows.size(), expected.size());
        for (size_t i = 0; i < rows.size(); ++i)
            QCOMPARE(rows[i], expected[i]);

        // keep-io-qdq leaves the boundary passes on the CPU too: x quantized before conv1 (the first row),
        // y dequantized after relu2 (the last).
        bpu::AnalysisOptions o;
        o.deploy = bpu::DeploySettings::keepIoQdq();
        bpu::Session k(bpu::ModelImporter::load(b.save("node_info.onnx")),
                       std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100")), o);
        const auto kept = csvRows(bpu::nodeInfoCsv(k.graph(), k.analysis()));
        QCOMPARE(kept.size(), expected.size() + 2);
        QCOMPARE(kept[1],
                 (std::vector<std::string>{"x_quantize", "CPU", "--", "Quantize", "--", "--", "int8"}));
        QCOMPARE(kept.back(),
                 (std::vector<std::string>{"y_dequantize", "CPU", "--", "Dequantize", "--", "--", "float"}));
    }

    // The CLI writes one row per node in the ONNX file's own node order (so it diffs against the compiler's
    // file line by line); the order is read here straight from the protobuf, not through the importer.
    void nodeInfoFollowsTheFileOrder() {
        const QString model = QString::fromStdString(bpu::test::samplesDir() + "/yolov8n.onnx");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("yolov8n_node_info.csv"));
        const Proc p = runCli({QStringLiteral("analyze"), model, QStringLiteral("--node-info"), out});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        std::ifstream f(out.toStdString());
        std::stringstream text;
        text << f.rdbuf();
        const auto rows = csvRows(text.str());
        onnx::ModelProto proto;
        std::ifstream in(model.toStdString(), std::ios::binary);
        QVERIFY(proto.ParseFromIstream(&in));
        // --fast-perf removes the boundary Quantize/Dequantize and yolov8n runs wholly on the BPU: no pass
        // row, one row per node.
        QCOMPARE(rows.size(), size_t(proto.graph().node_size()) + 1);
        std::set<std::string> on;
        for (int i = 0; i < proto.graph().node_size(); ++i) {
            QCOMPARE(rows[i + 1][0], proto.graph().node(i).name());
            QCOMPARE(rows[i + 1][3], proto.graph().node(i).op_type());
            on.insert(rows[i + 1][1]);
        }
        // YOLOv8n runs on the BPU but for its shape Constants, which the compiler folds ("--").
        QVERIFY(on.count("BPU") && on.count("--") && !on.count("CPU"));
        // With "-" the CSV is the only thing on stdout.
        const Proc toStdout =
            runCli({QStringLiteral("analyze"), model, QStringLiteral("--node-info"), QStringLiteral("-")});
        QCOMPARE(toStdout.exitCode, 0);
        QCOMPARE(toStdout.out.toStdString(), text.str());
    }

    // The perf JSON against the analysis JSON of the same model: the layers add up to the BPU time, the
    // summary's FPS is batch / BPU latency, the DDR bytes add up to the nodes' ddr_bytes, each BPU node is
    // in exactly one layer's origin ops, and each cost text's percentage is its time over the BPU total.
    void perfJsonAgreesWithTheAnalysis_data() {
        QTest::addColumn<QString>("sample");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n.onnx");
        QTest::addRow("resnet50") << QStringLiteral("resnet50.onnx");
        QTest::addRow("fcos_bpu") << QStringLiteral("fcos_efficientnetb0_bpu.onnx");
    }
    void perfJsonAgreesWithTheAnalysis() {
        QFETCH(QString, sample);
        const QString model = QString::fromStdString(bpu::test::samplesDir() + "/") + sample;
        const Proc perf =
            runCli({QStringLiteral("analyze"), model, QStringLiteral("--perf-json"), QStringLiteral("-")});
        QVERIFY2(perf.exitCode == 0, perf.err.constData());
        const Proc analysis =
            runCli({QStringLiteral("analyze"), model, QStringLiteral("--json"), QStringLiteral("-")});
        QCOMPARE(analysis.exitCode, 0);
        const auto p = nlohmann::json::parse(perf.out.toStdString());
        const auto a = nlohmann::json::parse(analysis.out.toStdString());

        QCOMPARE(p["bpuscope"]["schema"].get<std::string>(), std::string("bpuscope.perf/2"));
        QVERIFY(p["bpuscope"]["estimated"].get<bool>());
        const auto& perfSummary = p["summary"]["performance"];
        const double bpuUs = perfSummary["latency (us)"].get<double>();
        QVERIFY(std::fabs(bpuUs - a["summary"]["latency_breakdown_us"]["bpu"].get<double>()) < 1e-6 * bpuUs);
        QVERIFY(std::fabs(perfSummary["latency (ms)"].get<double>() * 1000 - bpuUs) < 1e-9 * bpuUs);
        QVERIFY(std::fabs(perfSummary["FPS"].get<double>() - 1e6 / bpuUs) <
                1e-9 * perfSummary["FPS"].get<double>());
        double segments = 0;
        for (const auto& s : perfSummary["latency (us) by segments"])
            segments += s.get<double>();
        QVERIFY(std::fabs(segments - bpuUs) < 1e-6 * bpuUs);

        double layers = 0;
        int64_t loaded = 0, stored = 0;
        std::multiset<std::string> origins;
        for (const auto& l : p["summary"]["layer details"]) {
            const auto& n = l["bpuscope"];
            layers += n["latency_us"].get<double>();
            loaded += n["loaded_bytes"].get<int64_t>();
            stored += n["stored_bytes"].get<int64_t>();
            for (const auto& o : n["origin_ops"])
                origins.insert(o.get<std::string>());
            QCOMPARE(l["origin ops"].get<size_t>(), n["origin_ops"].size());
            QCOMPARE(n["origin_ops"][0].get<std::string>(), l["layer name"].get<std::string>());
            const auto [us, pct] = costOf(l["active period of time"].get<std::string>());
            QVERIFY(std::fabs(us - n["latency_us"].get<double>()) <= 0.05 + 1e-9);
            QVERIFY(std::fabs(pct - 100.0 * n["latency_us"].get<double>() / bpuUs) <= 0.05 + 1e-9);
            QVERIFY(std::fabs(costOf(l["load cost"].get<std::string>()).first - n["load_us"].get<double>()) <=
                    0.05 + 1e-9);
        }
        QVERIFY2(std::fabs(layers - bpuUs) < 1e-6 * bpuUs,
                 qPrintable(QString::number(layers) + QStringLiteral(" vs ") + QString::number(bpuUs)));
        int64_t ddr = 0;
        std::multiset<std::string> bpuNodes;
        for (const auto& n : a["nodes"]) {
            const bool bpu = n["placement"].get<std::string>() == "BPU";
            const bool groupMember = !n["fusion_group"].is_null();
            if (bpu)
                bpuNodes.insert(n["name"].get<std::string>());
            if (bpu || groupMember)
                ddr += n["ddr_bytes"].get<int64_t>();
        }
        QCOMPARE(loaded + stored, ddr);
        QCOMPARE(p["summary"]["DDR access data"]["loaded bytes per run"].get<int64_t>(), loaded);
        QCOMPARE(p["summary"]["DDR access data"]["stored bytes per run"].get<int64_t>(), stored);
        // Every BPU node sits in one layer; fused members that are folded sit in their head's layer too.
        for (const auto& n : bpuNodes)
            QVERIFY2(origins.count(n) == 1, n.c_str());
        const auto& info = p["summary"]["model info"];
        QCOMPARE(info["BPU march"].get<std::string>(), a["target"]["march"].get<std::string>());
        QCOMPARE(info["BPU core number"].get<int>(), 1); // s100-facts.md: core_num = 1
        // original conv ops: the Conv and ConvTranspose nodes of the file, counted from the analysis JSON.
        int convs = 0;
        for (const auto& n : a["nodes"])
            convs += n["op"] == "Conv" || n["op"] == "ConvTranspose";
        QCOMPARE(info["original conv ops"].get<int>(), convs);
        // min memory requirement: the weights plus the peak of live activations, each at least the largest
        // single tensor the BPU writes and at most all of them at once.
        const auto& ddrData = p["summary"]["DDR access data"];
        const int64_t weights = ddrData["bpuscope"]["weight_bytes"].get<int64_t>();
        const int64_t peak = ddrData["bpuscope"]["peak_activation_bytes"].get<int64_t>();
        QCOMPARE(ddrData["min memory requirement"].get<int64_t>(), weights + peak);
        int64_t largest = 0, all = 0, nodeWeights = 0;
        for (const auto& n : a["nodes"])
            if (n["placement"].get<std::string>() == "BPU") {
                nodeWeights += n["weight_bytes"].get<int64_t>();
                all += n["output_bytes"].get<int64_t>();
                largest = std::max(largest, n["output_bytes"].get<int64_t>());
            }
        QCOMPARE(weights, nodeWeights);
        QVERIFY2(peak >= largest && peak <= all + largest * 4,
                 qPrintable(QStringLiteral("%1 in [%2, %3]").arg(peak).arg(largest).arg(all)));
    }

    // Issue 64: a reader written from the vendor's documented paths (s100-facts.md: summary["performance"]
    // ["latency (us) by segments"] a list of numbers, summary["layer details"][i]["origin ops"] a count,
    // summary["DDR access data"]["min memory requirement"], summary["model info"]["BPU core number"], ...),
    // independent of the writer (tests/data/perf/read_perf.py, Debian's python3), reads the perf JSON of
    // every sample without a KeyError or a type mismatch.
    void vendorReaderReadsEverySample() {
        QTemporaryDir dir;
        QStringList files;
        for (const auto& e : std::filesystem::directory_iterator(bpu::test::samplesDir())) {
            if (e.path().extension() != ".onnx")
                continue;
            const QString out = dir.filePath(QString::fromStdString(e.path().stem().string() + ".json"));
            const Proc perf = runCli({QStringLiteral("analyze"), QString::fromStdString(e.path().string()),
                                      QStringLiteral("--perf-json"), out});
            QVERIFY2(perf.exitCode == 0, perf.err.constData());
            files << out;
        }
        QVERIFY(files.size() >= 10);
        const Proc read = clirun::runProgram(
            QStringLiteral("/usr/bin/python3"),
            QStringList{QString::fromStdString(bpu::test::testDataDir() + "/perf/read_perf.py")} + files);
        QVERIFY2(read.exitCode == 0, read.err.constData());
        QCOMPARE(read.out.count('\n'), files.size());
    }
};

QTEST_GUILESS_MAIN(TestVendorTables)
#include "tst_vendor_tables.moc"
