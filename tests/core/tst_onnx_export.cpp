// SPDX-License-Identifier: MIT
// The changed model written back out (issue 49): an export re-imports to the same analysis, keeps every
// weight byte for byte, names every node as the importer did, keeps a graph-only model graph-only and
// copies present external weights beside the output, never over the source. The plan's changes (shape
// edits, the activation rewrite, the channel counts, group convs) export to a model BpuScope re-analyses
// at the plan's latency; `bpuscope-cli export` refuses an idealized what-if by name.
#include "CliRun.h"
#include "OnnxFixtures.h"
#include "SampleFiles.h"
#include "TestPaths.h"

#include "core/advice/OptimizationPlan.h"

#include "core/edit/Edit.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/io/AnalysisJson.h"
#include "core/io/OnnxExport.h"
#include "core/model/ModelImporter.h"

#include <onnx/onnx_pb.h>

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <random>

namespace fs = std::filesystem;

namespace {

onnx::ModelProto readProto(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    onnx::ModelProto m;
    if (!m.ParseFromIstream(&in))
        throw std::runtime_error("cannot parse " + path);
    return m;
}

/// Random float bytes for a tensor of `n` elements: values no two weights share by chance.
std::string randomFloats(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::string raw(n * sizeof(float), '\0');
    for (size_t i = 0; i < n; ++i) {
        const float v = d(rng);
        std::memcpy(raw.data() + i * sizeof(float), &v, sizeof v);
    }
    return raw;
}

/// x[1,3,32,32] -> conv1 (16, 3x3, bias) -> BatchNormalization -> Relu (unnamed) -> conv2 (8, 1x1) -> y.
/// Real (random) weights, so "byte-equal" means something.
std::string realWeightsModel(const std::string& file) {
    fixtures::ModelBuilder b;
    b.input("x", {1, 3, 32, 32});
    auto weight = [&](const std::string& name, std::vector<int64_t> dims, unsigned seed) {
        b.weight(name, dims);
        size_t n = 1;
        for (int64_t d : dims)
            n *= size_t(d);
        b.graph().mutable_initializer(b.graph().initializer_size() - 1)->set_raw_data(randomFloats(n, seed));
    };
    weight("w1", {16, 3, 3, 3}, 1);
    weight("b1", {16}, 2);
    weight("bn_scale", {16}, 3);
    weight("bn_bias", {16}, 4);
    weight("bn_mean", {16}, 5);
    weight("bn_var", {16}, 6);
    weight("w2", {8, 16, 1, 1}, 7);
    auto& c1 = b.node("Conv", {"x", "w1", "b1"}, {"c1"}, "conv1");
    fixtures::setInts(c1, "pads", {1, 1, 1, 1});
    b.node("BatchNormalization", {"c1", "bn_scale", "bn_bias", "bn_mean", "bn_var"}, {"bn"}, "bn1");
    b.node("Relu", {"bn"}, {"r"}); // no name: the importer calls it Relu_<index>
    b.node("Conv", {"r", "w2"}, {"y"}, "conv2");
    b.output("y");
    return b.save(file);
}

/// The analysis document without what names the file (the model, and the file each diagnostic is about).
nlohmann::json analysisOf(const bpu::Session& s) {
    nlohmann::json j = bpu::analysisJson(s.graph(), s.target(), s.analysis(), &s.cost());
    j.erase("model");
    if (j.contains("diagnostics"))
        for (auto& d : j["diagnostics"])
            d.erase("file");
    return j;
}

} // namespace

class TestOnnxExport : public QObject {
    Q_OBJECT

private slots:
    void unchangedModelRoundTrips() {
        const std::string src = realWeightsModel("real_weights.onnx");
        bpu::Session s(bpu::ModelImporter::load(src), samples::s100());
        const std::string out = fixtures::tempDir() + "/real_weights_export.onnx";
        const bpu::OnnxExportReport rep = bpu::exportOnnx(s.graph(), out);
        QVERIFY(rep.reinitialised.empty());
        QVERIFY(rep.warnings.empty());
        // Every weight byte for byte, every node named as the importer named it.
        const onnx::ModelProto a = readProto(src), b = readProto(out);
        QCOMPARE(b.graph().initializer_size(), a.graph().initializer_size());
        for (const auto& t : a.graph().initializer()) {
            bool found = false;
            for (const auto& u : b.graph().initializer())
                if (u.name() == t.name()) {
                    found = true;
                    QCOMPARE(u.SerializeAsString(), t.SerializeAsString());
                }
            QVERIFY2(found, t.name().c_str());
        }
        QStringList names, imported;
        for (const auto& n : b.graph().node())
            names << QString::fromStdString(n.name());
        for (bpu::NodeId id : s.graph().topoOrder)
            imported << QString::fromStdString(s.graph().node(id).name);
        QCOMPARE(names, imported);
        QVERIFY(names.at(2).startsWith("Relu_")); // the file left it unnamed
        QCOMPARE(b.graph().value_info_size(), 0);
        QCOMPARE(b.opset_import_size(), a.opset_import_size());
        // Re-imported, the same analysis.
        bpu::Session again(bpu::ModelImporter::load(out), samples::s100());
        QCOMPARE(analysisOf(again), analysisOf(s));
    }

    // Every bundled sample (graph-only: their weights' files are not shipped) exports graph-only, with
    // the same external references, and re-imports to the same analysis.
    void samplesRoundTrip_data() {
        QTest::addColumn<QString>("file");
        for (const auto& f : samples::sampleFiles())
            QTest::newRow(f.c_str()) << QString::fromStdString(f);
    }
    void samplesRoundTrip() {
        QFETCH(QString, file);
        bpu::Session s(bpu::ModelImporter::load(samples::samplePath(file.toStdString())), samples::s100());
        const std::string out = fixtures::tempDir() + "/" + file.toStdString();
        const bpu::OnnxExportReport rep = bpu::exportOnnx(s.graph(), out);
        QVERIFY(rep.reinitialised.empty());
        QVERIFY(rep.copiedFiles.empty()); // nothing to copy: the weights are not there
        bpu::Session again(bpu::ModelImporter::load(out), samples::s100());
        QCOMPARE(again.graph().nodes.size(), s.graph().nodes.size());
        QCOMPARE(again.cost().latencyMs, s.cost().latencyMs);
        const nlohmann::json diff = nlohmann::json::diff(analysisOf(s), analysisOf(again));
        QVERIFY2(diff.empty(), diff.dump().substr(0, 600).c_str());
    }

    // Weights in an external file: exported into another folder, the file is copied beside the output,
    // byte for byte; into the model's own folder the reference is kept and nothing copied. The source
    // itself is never an output.
    void externalWeights() {
        const std::string dir = fixtures::tempDir() + "/ext_src";
        fs::create_directories(dir);
        fixtures::ModelBuilder b;
        b.input("x", {1, 3, 16, 16});
        b.externalWeight("w", {8, 3, 3, 3}, "weights.bin");
        b.node("Conv", {"x", "w"}, {"y"}, "conv");
        b.output("y");
        const std::string model = fs::path(b.save("ext_model.onnx")).string();
        const std::string src = dir + "/ext_model.onnx";
        fs::copy_file(model, src, fs::copy_options::overwrite_existing);
        const std::string weights = randomFloats(8 * 3 * 3 * 3, 9);
        std::ofstream(dir + "/weights.bin", std::ios::binary) << weights;
        bpu::Session s(bpu::ModelImporter::load(src), samples::s100());

        const std::string outDir = fixtures::tempDir() + "/ext_out";
        fs::create_directories(outDir);
        const auto rep = bpu::exportOnnx(s.graph(), outDir + "/exported.onnx");
        QCOMPARE(rep.copiedFiles.size(), size_t(1));
        std::ifstream copied(outDir + "/weights.bin", std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(copied)), std::istreambuf_iterator<char>());
        QCOMPARE(bytes, weights);
        bpu::Session again(bpu::ModelImporter::load(outDir + "/exported.onnx"), samples::s100());
        QCOMPARE(analysisOf(again), analysisOf(s));

        const auto beside = bpu::exportOnnx(s.graph(), dir + "/exported_here.onnx");
        QVERIFY(beside.copiedFiles.empty());
        try {
            bpu::exportOnnx(s.graph(), src);
            QFAIL("exported over its own source");
        } catch (const bpu::ExportError& e) {
            QVERIFY2(QString(e.what()).contains("is the model being exported"), e.what());
        }
    }

    // The plan's steps exported and re-imported land on the plan's last latency (the issue allows 1%; the
    // same graph re-analysed gives the same figure). The re-initialised weights are those whose dims the
    // plan changed.
    void planExportReanalyses_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("yolov8n") << QStringLiteral("yolov8n.onnx");
        QTest::newRow("resnet50") << QStringLiteral("resnet50.onnx");
    }
    void planExportReanalyses() {
        QFETCH(QString, file);
        bpu::Session s(bpu::ModelImporter::load(samples::samplePath(file.toStdString())), samples::s100());
        s.estimateFindingGains();
        const bpu::OptimizationPlan plan = bpu::buildOptimizationPlan(s);
        QVERIFY(!plan.steps.empty());
        bpu::EditList edits;
        for (const auto& st : plan.steps)
            edits.insert(edits.end(), st.edits.begin(), st.edits.end());
        bpu::applyEditList(s, edits);
        const std::string out = fixtures::tempDir() + "/plan_" + file.toStdString();
        const bpu::OnnxExportReport rep = bpu::exportOnnx(s.graph(), out);
        bpu::Session again(bpu::ModelImporter::load(out), samples::s100());
        const double planned = plan.steps.back().latencyMsAfter;
        QVERIFY2(std::abs(again.cost().latencyMs - planned) <= 0.01 * planned,
                 qPrintable(QStringLiteral("%1 vs %2").arg(again.cost().latencyMs).arg(planned)));
        for (const auto& name : rep.reinitialised) {
            const bpu::TensorId t = again.graph().findTensor(name);
            QVERIFY(t.valid() && again.graph().tensor(t).isInitializer);
        }
    }

    // The command: an idealized edit is refused by name (exit 3), nothing written; a concrete list writes
    // the model and says what it estimates.
    void cliRefusesIdealized() {
        const std::string dir = fixtures::tempDir();
        const std::string edits = fixtures::writeBytes("idealized.json",
                                                       R"([{"op": "set_batch", "batch": 2},
                                                           {"op": "assume_aligned", "tensors": ["x"]}])");
        const QString out = QString::fromStdString(dir + "/refused.onnx");
        const auto r = clirun::runCli({"export", QString::fromStdString(samples::samplePath("resnet50.onnx")),
                                       "--edits", QString::fromStdString(edits), "-o", out});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains("edit 2 (assume_aligned") && r.err.contains("no form in a model file"),
                 r.err.constData());
        QVERIFY(!QFile::exists(out));
        const std::string ok = fixtures::writeBytes("concrete.json", R"([{"op": "set_batch", "batch": 2}])");
        const QString written = QString::fromStdString(dir + "/batch2.onnx");
        const auto w = clirun::runCli({"export", QString::fromStdString(samples::samplePath("resnet50.onnx")),
                                       "--edits", QString::fromStdString(ok), "-o", written});
        QCOMPARE(w.exitCode, 0);
        QVERIFY2(w.out.contains("wrote "), w.out.constData());
        // What the change costs besides time is said with the file (set_batch: per image, not per frame).
        QVERIFY2(w.err.contains("what the exported changes cost: throughput trade-off"), w.err.constData());
        bpu::Session again(bpu::ModelImporter::load(written.toStdString()), samples::s100());
        QCOMPARE(again.graph().tensor(again.graph().inputs[0]).shape.dims[0], int64_t(2));
    }

    // Issue 51 step 2: --yaml writes the hb_compile config of the exported state beside the model; the
    // exported model analysed under that config alone estimates what the source model with the edits does
    // (the placement, the int16 nodes and the moved normalisation travel in the config, not the file).
    void cliWritesTheCompileConfig_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("edits");
        QTest::addColumn<QString>("expect"); // a line the YAML must hold
        QTest::addColumn<QString>("deploy"); // how the source model runs (empty: the default)
        QTest::newRow("yolov8n placement and int16")
            << QString::fromStdString(samples::samplePath("yolov8n.onnx"))
            << QStringLiteral(
                   R"([{"op": "set_placement", "node": "/model.22/cv3.2/cv3.2.2/Conv", "placement": "CPU"},
                                 {"op": "set_precision", "nodes": ["/model.2/cv1/conv/Conv"], "precision": "int16"}])")
            << QStringLiteral("      'ON': 'CPU'")
            << QString::fromStdString(bpu::test::testDataDir() + "/deploy/yolov8n_nv12.yaml");
        QTest::newRow("normalisation moved into the config")
            << QString::fromStdString(bpu::test::testDataDir() + "/families/input_norm.onnx")
            << QStringLiteral(R"([{"op": "move_input_normalization", "input": "image"}])")
            << QStringLiteral("  mean_value: 123.675 116.28 103.53") << QString();
    }
    void cliWritesTheCompileConfig() {
        QFETCH(QString, model);
        QFETCH(QString, edits);
        QFETCH(QString, expect);
        QFETCH(QString, deploy);
        const QStringList how =
            deploy.isEmpty() ? QStringList() : QStringList{QStringLiteral("--deploy"), deploy};
        const std::string dir =
            fixtures::tempDir() + "/yaml_" + std::to_string(std::hash<std::string>()(model.toStdString()));
        fs::create_directories(dir + "/cfg");
        const QString list =
            QString::fromStdString(fixtures::writeBytes("yaml_edits.json", edits.toStdString()));
        const QString onnx = QString::fromStdString(dir + "/changed.onnx");
        const QString yaml = QString::fromStdString(dir + "/cfg/changed.yaml");
        const auto w =
            clirun::runCli(QStringList{"export", model, "--edits", list, "-o", onnx, "--yaml", yaml} + how);
        QVERIFY2(w.exitCode == 0, w.err.constData());
        QVERIFY2(w.out.contains("wrote " + yaml.toUtf8()), w.out.constData());
        QFile f(yaml);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains(QStringLiteral("onnx_model: '../changed.onnx'")),
                 qPrintable(text)); // from the config's folder
        QVERIFY2(text.contains(expect), qPrintable(text));
        const auto source = clirun::runCli(QStringList{"analyze", model, "--edits", list} + how);
        const auto exported = clirun::runCli({"analyze", onnx, "--deploy", yaml});
        QCOMPARE(source.exitCode, 0);
        QCOMPARE(exported.exitCode, 0);
        auto latency = [](const QByteArray& out) {
            for (const QByteArray& line : out.split('\n'))
                if (line.startsWith("latency:"))
                    return line;
            return QByteArray();
        };
        QVERIFY(!latency(source.out).isEmpty());
        QCOMPARE(latency(exported.out), latency(source.out));
        QVERIFY2(!exported.err.contains("ignored") && !exported.err.contains("not modelled"),
                 exported.err.constData());
    }

    // Issue 64: under --fast-perf yolov8n's image is nv12 and normalised on the BPU, with no mean/scale known
    // and none in the graph (ultralytics scales to 0..1 outside it): a config would not compile, or would
    // feed raw pixels. Refused before either file is written, naming the config, the input and what to give.
    void cliRefusesAConfigWithoutTheNormalisation() {
        const std::string dir = fixtures::tempDir() + "/nonorm";
        fs::create_directories(dir);
        const QString onnx = QString::fromStdString(dir + "/y.onnx"),
                      yaml = QString::fromStdString(dir + "/y.yaml");
        const auto w = clirun::runCli({"export", QString::fromStdString(samples::samplePath("yolov8n.onnx")),
                                       "--plan", "1", "-o", onnx, "--yaml", yaml});
        QCOMPARE(w.exitCode, 3);
        QVERIFY2(w.err.contains(yaml.toUtf8()) && w.err.contains("'images'") && w.err.contains("mean_value"),
                 w.err.constData());
        QVERIFY(!QFile::exists(onnx) && !QFile::exists(yaml));
        // With the config that gives the scale, it writes both.
        const auto ok =
            clirun::runCli({"export", QString::fromStdString(samples::samplePath("yolov8n.onnx")), "--plan",
                            "1", "-o", onnx, "--yaml", yaml, "--deploy",
                            QString::fromStdString(bpu::test::testDataDir() + "/deploy/yolov8n_nv12.yaml")});
        QVERIFY2(ok.exitCode == 0, ok.err.constData());
        QVERIFY(QFile::exists(onnx) && QFile::exists(yaml));
    }

    // --yaml is a file beside the model: not stdout, not the model's own path.
    void cliYamlOutputRules() {
        const std::string dir = fixtures::tempDir();
        const QString model = QString::fromStdString(samples::samplePath("resnet18.onnx"));
        const QString onnx = QString::fromStdString(dir + "/r.onnx");
        const auto toStdout = clirun::runCli({"export", model, "-o", onnx, "--yaml", "-"});
        QCOMPARE(toStdout.exitCode, 2);
        QVERIFY(!QFile::exists(onnx));
        const auto same = clirun::runCli({"export", model, "-o", onnx, "--yaml", onnx});
        QVERIFY(same.exitCode != 0);
        QVERIFY(!QFile::exists(onnx));
        const auto over = clirun::runCli({"export", model, "-o", onnx, "--yaml", model});
        QVERIFY(over.exitCode != 0);
    }
};

QTEST_GUILESS_MAIN(TestOnnxExport)
#include "tst_onnx_export.moc"
