// SPDX-License-Identifier: MIT
// `compare`: one network (torchvision ResNet-18) exported twice with different node naming, and once more at
// another input size with a Softmax added (tests/data/compare/make_fixtures.py). What a correct match is, is
// known independently of the matcher: the wrapper export prefixes every scoped torch name with "/backbone",
// and the renumbered copies below are the same file with names rewritten by position.
#include "CliRun.h"
#include "SampleFiles.h"
#include "TestPaths.h"
#include "core/compare/CompareOutput.h"
#include "core/compare/ModelComparison.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include "OnnxFixtures.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>

namespace {

using samples::s100;

const std::string kData = bpu::test::testDataDir() + "/compare/";
const std::string kPlain = kData + "resnet18.onnx";
const std::string kRenamed = kData + "resnet18_renamed.onnx";
const std::string kSoftmax256 = kData + "resnet18_softmax256.onnx";

bpu::Session load(const std::string& path) {
    return bpu::Session(bpu::ModelImporter::load(path), s100());
}

using clirun::Proc;
using clirun::runCli;

/// A copy of `src` with node k renamed "<op>_<k + offset>", as an exporter that numbers nodes does.
std::string renumbered(const std::string& src, int offset, const std::string& name) {
    onnx::ModelProto m;
    std::ifstream in(src, std::ios::binary);
    if (!m.ParseFromIstream(&in))
        qFatal("cannot read %s", src.c_str());
    for (int k = 0; k < m.graph().node_size(); ++k) {
        auto* n = m.mutable_graph()->mutable_node(k);
        n->set_name(n->op_type() + "_" + std::to_string(k + offset));
    }
    const std::string path = fixtures::tempDir() + "/" + name;
    std::ofstream out(path, std::ios::binary);
    m.SerializeToOstream(&out);
    return path;
}

/// The first node (in file order) consuming an output of `id`.
std::string consumerName(const bpu::Graph& g, bpu::NodeId id) {
    const bpu::Tensor& t = g.tensor(g.node(id).outputs.at(0));
    return t.consumers.empty() ? std::string() : g.node(t.consumers.front()).name;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT

private slots:
    // ResNet-18 as torch 1.13 exports it: 20 Conv (stem, 2 per basic block x 8, 3 downsample), 17 Relu (stem,
    // 2 per block), 8 Add, MaxPool, GlobalAveragePool, Flatten, Gemm = 49, plus 16 Identity nodes through
    // which torch shares a zero bias initializer: 65 nodes.
    void renamedExportMatchesNodeForNode() {
        bpu::Session a = load(kPlain), b = load(kRenamed);
        QCOMPARE(a.graph().nodes.size(), size_t(65));
        QCOMPARE(b.graph().nodes.size(), size_t(65));
        const bpu::NodeMatching m = bpu::matchNodes(a.graph(), b.graph());
        QCOMPARE(m.pairs.size(), size_t(65));
        QVERIFY(m.unmatchedA.empty() && m.unmatchedB.empty());
        int scoped = 0, identities = 0;
        for (const auto& p : m.pairs) {
            const std::string na = a.graph().node(p.a).name, nb = b.graph().node(p.b).name;
            // No two names agree (the Identity_k names do, but a node reading only weights is never paired
            // by name): every pair was found by structure.
            QCOMPARE(p.how, bpu::MatchKind::Structure);
            if (na.rfind('/', 0) == 0) {
                QCOMPARE(nb, "/backbone" + na);
                ++scoped;
            } else {
                // An Identity is the right one when it feeds the same conv.
                QCOMPARE(a.graph().node(p.a).opType, std::string("Identity"));
                QCOMPARE(consumerName(b.graph(), p.b), "/backbone" + consumerName(a.graph(), p.a));
                ++identities;
            }
        }
        QCOMPARE(scoped, 49);
        QCOMPARE(identities, 16);

        // Same network, same shapes: every delta is exactly zero.
        const bpu::Comparison c = bpu::compareSessions(a, b);
        QCOMPARE(c.latencyMsDelta(), 0.0);
        QCOMPARE(c.bpuMsDelta(), 0.0);
        QCOMPARE(c.fpsDelta(), 0.0);
        QCOMPARE(c.placementChanges + c.shapeChanges + c.paddingChanges, 0);
        QVERIFY(c.findingsAdded.empty() && c.findingsRemoved.empty());
        for (const auto& d : c.nodes)
            QCOMPARE(d.latencyDeltaUs(), 0.0);
    }

    // Exporters that number nodes ("Conv_12") renumber everything after an inserted node. Here B is A with
    // every name shifted by two positions, so A's "Conv_k" and B's "Conv_k" are different nodes wherever
    // both exist: the name pass must not pair them, and structure must still pair node k with node k.
    void renumberedNamesNeverPairWrongNodes() {
        const std::string pa = renumbered(kPlain, 0, "numbered_a.onnx");
        const std::string pb = renumbered(kPlain, 2, "numbered_b.onnx");
        const bpu::Graph a = bpu::ModelImporter::load(pa), b = bpu::ModelImporter::load(pb);
        const bpu::NodeMatching m = bpu::matchNodes(a, b);
        QCOMPARE(m.pairs.size(), size_t(65));
        int collisions = 0;
        for (const auto& p : m.pairs) {
            const std::string na = a.node(p.a).name, nb = b.node(p.b).name;
            const int k = std::stoi(na.substr(na.rfind('_') + 1));
            QCOMPARE(nb, a.node(p.a).opType + "_" + std::to_string(k + 2));
            collisions += b.findNode(na).valid() && b.node(b.findNode(na)).opType == a.node(p.a).opType;
        }
        QVERIFY2(collisions > 0,
                 "the fixture must contain same-named nodes of the same op at other positions");
    }

    // The wrapper with a Softmax, exported at 256x256: every node of A still matches, the Softmax is B's
    // only extra node, and shapes follow the input: the stem conv (7x7, stride 2, pad 3) gives
    // (256 + 6 - 7) / 2 + 1 = 128 instead of (224 + 6 - 7) / 2 + 1 = 112; the classifier stays 1x1000.
    // 256^2 / 224^2 = 1.31x the pixels: B must be slower on every latency figure.
    void otherInputSizeAndAnExtraNode() {
        bpu::Session a = load(kPlain), b = load(kSoftmax256);
        const bpu::Comparison c = bpu::compareSessions(a, b);
        QCOMPARE(c.nodes.size(), size_t(65));
        QCOMPARE(c.unmatchedA.size(), size_t(0));
        QCOMPARE(c.unmatchedB.size(), size_t(1));
        QCOMPARE(c.unmatchedB[0].op, std::string("Softmax"));
        std::map<std::string, const bpu::NodeDelta*> byA;
        for (const auto& d : c.nodes)
            byA[d.inA.name] = &d;
        QVERIFY(byA.count("/conv1/Conv"));
        QCOMPARE(byA["/conv1/Conv"]->inB.name, std::string("/backbone/conv1/Conv"));
        QCOMPARE(byA["/conv1/Conv"]->inA.shape, (std::vector<int64_t>{1, 64, 112, 112}));
        QCOMPARE(byA["/conv1/Conv"]->inB.shape, (std::vector<int64_t>{1, 64, 128, 128}));
        QCOMPARE(byA["/fc/Gemm"]->inB.shape, (std::vector<int64_t>{1, 1000}));
        QVERIFY(!byA["/fc/Gemm"]->shapeChanged());
        QVERIFY(c.latencyMsDelta() > 0);
        QVERIFY(c.bpuMsDelta() > 0);
        QVERIFY(c.fpsDelta() < 0);
        // Every conv/relu/add/pool shape grew; Flatten and Gemm (1x512, 1x1000) and the 16 weight Identities
        // did not: 65 - 2 - 16 - 1 (GlobalAveragePool keeps 1x512x1x1) = 46.
        QCOMPARE(c.shapeChanges, 46);
    }

    // Issue 63: --deploy applies one deployment to both sides. yolov8n against itself under a featuremap
    // config that keeps the I/O quantize/dequantize on the CPU (for nash-m, the S100P): both sides are the
    // model `analyze --deploy` estimates with that config - the same latency - and the delta is zero.
    void deployAppliesToBothSides() {
        const QString model = QString::fromStdString(samples::samplePath("yolov8n.onnx"));
        const QString yaml =
            QString::fromStdString(bpu::test::testDataDir() + "/deploy/featuremap_keep_qdq.yaml");
        const Proc analyzed = runCli({QStringLiteral("analyze"), model, QStringLiteral("--deploy"), yaml,
                                      QStringLiteral("--json"), QStringLiteral("-")});
        QVERIFY2(analyzed.exitCode == 0, analyzed.err.constData());
        const double ms =
            nlohmann::json::parse(analyzed.out.toStdString())["summary"]["latency_ms"].get<double>();
        const Proc p = runCli({QStringLiteral("compare"), model, model, QStringLiteral("--deploy"), yaml,
                               QStringLiteral("--json"), QStringLiteral("-")});
        QVERIFY2(p.exitCode == 0, p.err.constData());
        const auto j = nlohmann::json::parse(p.out.toStdString());
        QCOMPARE(j["a"]["latency_ms"].get<double>(), ms);
        QCOMPARE(j["b"]["latency_ms"].get<double>(), ms);
        QCOMPARE(j["summary"]["latency_ms_delta"].get<double>(), 0.0);
        // The default deployment (fast-perf) estimates something else: the config was applied.
        const Proc plain =
            runCli({QStringLiteral("compare"), model, model, QStringLiteral("--json"), QStringLiteral("-")});
        QVERIFY(nlohmann::json::parse(plain.out.toStdString())["a"]["latency_ms"].get<double>() != ms);
        // A broken config is refused before anything is compared.
        QCOMPARE(runCli({QStringLiteral("compare"), model, model, QStringLiteral("--deploy"),
                         QString::fromStdString(bpu::test::testDataDir() + "/deploy/bad_syntax.yaml")})
                     .exitCode,
                 3);
    }

    // The CLI's contract: JSON keys the issue names, the CSV's rows, md/html/pdf documents, exit codes.
    void cliOutputs() {
        const QString a = QString::fromStdString(kPlain), b = QString::fromStdString(kSoftmax256);
        const Proc json =
            runCli({QStringLiteral("compare"), a, b, QStringLiteral("--json"), QStringLiteral("-")});
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const auto j = nlohmann::json::parse(json.out.toStdString());
        QCOMPARE(j["schema"].get<std::string>(), std::string("bpuscope.compare/1"));
        for (const char* key : {"latency_ms_delta", "bpu_ms_delta", "fps_delta", "cpu_nodes_delta",
                                "bpu_segments_delta", "padding_waste_bytes_delta", "findings_delta"})
            QVERIFY2(j["summary"].contains(key), key);
        QCOMPARE(j["nodes"].size(), size_t(65));
        QCOMPARE(j["unmatched"]["a"].size(), size_t(0));
        QCOMPARE(j["unmatched"]["b"].size(), size_t(1));
        QCOMPARE(j["unmatched"]["b"][0]["op"].get<std::string>(), std::string("Softmax"));
        const double d = j["b"]["latency_ms"].get<double>() - j["a"]["latency_ms"].get<double>();
        QCOMPARE(j["summary"]["latency_ms_delta"].get<double>(), d);

        const Proc csv =
            runCli({QStringLiteral("compare"), a, b, QStringLiteral("--csv"), QStringLiteral("-")});
        QCOMPARE(csv.exitCode, 0);
        QCOMPARE(csv.out.count('\n'), 1 + 65 + 1); // header, matched pairs, the Softmax

        QTemporaryDir dir;
        for (const char* ext : {"md", "html", "pdf"}) {
            const QString out = dir.filePath(QStringLiteral("cmp.") + QLatin1String(ext));
            const Proc p = runCli({QStringLiteral("compare"), a, b, QStringLiteral("-o"), out});
            QVERIFY2(p.exitCode == 0, p.err.constData());
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            if (QLatin1String(ext) == QLatin1String("pdf"))
                QVERIFY(text.startsWith("%PDF"));
            else
                QVERIFY2(text.contains("How nodes were matched") && text.contains("Softmax"), ext);
        }
        const Proc missing = runCli({QStringLiteral("compare"), a, QStringLiteral("/nonexistent/b.onnx")});
        QCOMPARE(missing.exitCode, 3);
        QVERIFY(missing.err.contains("/nonexistent/b.onnx"));
        QCOMPARE(runCli({QStringLiteral("compare"), a}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("compare"), a, b, QStringLiteral("--format"), QStringLiteral("docx")})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
