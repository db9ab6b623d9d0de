// SPDX-License-Identifier: MIT
// The bundled samples (real architectures, graph-only): params against an independent count of the file's
// initializers, MACs against the published figures, every shape known, and the CLI's JSON on each.
#include "OnnxFixtures.h"
#include "TestPaths.h"

#include "core/metrics/NodeMetrics.h"
#include "core/model/ModelImporter.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace {

struct Published {
    double gmacs; ///< published GMACs (torchvision's "GFLOPS" column counts MACs; Ultralytics FLOPs / 2)
    double gmacsRounding; ///< half a unit of the published figure's last digit
    double mparams;       ///< published parameter count, millions
    bool dataDependent;   ///< the graph includes post-processing (NMS) whose output sizes depend on the data
};

// Every file in samples/ must have a row here (a new sample without expectations fails).
const std::map<std::string, Published>& published() {
    static const std::map<std::string, Published> m{
        // torchvision 0.14 model docs (weights tables): GFLOPS (= GMACs) and params at 224x224.
        {"resnet18", {1.81, 0.005, 11.690, false}},
        // QAT exports of the same architectures: the MACs are the float model's (fake-quants compute none).
        {"resnet18_qat", {1.81, 0.005, 11.690, false}},
        {"mobilenet_v2_qat", {0.30, 0.005, 3.505, false}},
        {"resnet50", {4.09, 0.005, 25.557, false}},
        {"resnet152", {11.51, 0.005, 60.193, false}},
        {"mobilenet_v2", {0.30, 0.005, 3.505, false}},
        {"efficientnet_b0", {0.39, 0.005, 5.289, false}},
        {"shufflenet_v2_x1_0", {0.14, 0.005, 2.279, false}},
        // Detectors at 320x320, whole graph including the transform and NMS.
        {"ssdlite320_mobilenet_v3_large", {0.58, 0.005, 3.440, true}},
        {"fasterrcnn_mobilenet_v3_large_320_fpn", {0.72, 0.005, 19.386, true}},
        // Ultralytics YOLOv8 at 640x640: FLOPs 8.7/28.6/78.9/165.2/257.8 G = 2 x MACs.
        {"yolov8n", {8.7 / 2, 0.025, 3.2, false}},
        {"yolov8s", {28.6 / 2, 0.025, 11.2, false}},
        {"yolov8m", {78.9 / 2, 0.025, 25.9, false}},
        {"yolov8l", {165.2 / 2, 0.025, 43.7, false}},
        {"yolov8x", {257.8 / 2, 0.025, 68.2, false}},
        // No published figure: checked against a hand count below (fcosMacs).
        {"fcos_efficientnetb0", {0, 0, 0, false}},
        // The BPU calibration variant (64-ch FPN/head, BN kept): no published figure either.
        {"fcos_efficientnetb0_bpu", {0, 0, 0, false}},
        // Calibration models (shared/models/calibration). MobileNetV4-Conv-Small: timm's card, 3.8 M params
        // and 0.2 GMACs at 224 (one decimal); the file's 3,761,480 params are the model zoo ONNX's count.
        {"mobilenetv4_conv_small", {0.2, 0.05, 3.761480, false}},
        // EfficientNet-Lite0 and YOLO12n: the published MAC counts use conventions this file cannot be held
        // to
        // (TF's multiply-adds with BN; Ultralytics' thop profile, which skips functional MatMuls such as
        // attention's), so only the initializer counts are checked.
        {"efficientnet_lite0", {0, 0, 0, false}},
        {"yolo12n", {0, 0, 0, false}},
    };
    return m;
}

std::vector<std::string> sampleNames() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(bpu::test::samplesDir()))
        if (e.path().extension() == ".onnx")
            names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string samplePath(const std::string& name) {
    return bpu::test::samplesDir() + "/" + name + ".onnx";
}

// The reference count, straight from the protobuf: elements and bytes of every initializer.
struct InitializerCount {
    int64_t elements = 0;
    int64_t bytes = 0;
    int count = 0;
    int nodes = 0;
};

InitializerCount countInitializers(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    onnx::ModelProto model;
    if (!model.ParseFromIstream(&in))
        qFatal("%s does not parse", path.c_str());
    InitializerCount c;
    c.nodes = model.graph().node_size();
    for (const auto& t : model.graph().initializer()) {
        int64_t n = 1;
        for (auto d : t.dims())
            n *= d;
        int64_t elem = 0;
        switch (t.data_type()) {
        case onnx::TensorProto::FLOAT:
        case onnx::TensorProto::INT32:
            elem = 4;
            break;
        case onnx::TensorProto::INT64:
        case onnx::TensorProto::DOUBLE:
            elem = 8;
            break;
        case onnx::TensorProto::FLOAT16:
            elem = 2;
            break;
        default:
            elem = 1;
            break;
        }
        c.elements += n;
        c.bytes += n * elem;
        ++c.count;
    }
    return c;
}

// Ops whose output size depends on values; every open shape in a detector must trace back to one of them.
const std::set<std::string> kValueDependentOps{"NonZero", "NonMaxSuppression", "Unique", "Compress"};

int64_t macsWithPrefix(const bpu::Graph& g, const std::vector<bpu::NodeMetrics>& m,
                       const std::string& prefix) {
    int64_t sum = 0;
    for (const auto& n : g.nodes)
        if (n.name.rfind(prefix, 0) == 0)
            sum += m[n.id.value].macs;
    return sum;
}

} // namespace

class TestSamples : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // The minimum set must be there, whatever else is.
        auto names = sampleNames();
        for (const char* required : {"resnet50", "mobilenet_v2", "efficientnet_b0", "resnet152", "yolov8n"})
            QVERIFY2(std::find(names.begin(), names.end(), required) != names.end(), required);
    }

    void sample_data() {
        QTest::addColumn<QString>("name");
        for (const auto& n : sampleNames())
            QTest::addRow("%s", n.c_str()) << QString::fromStdString(n);
    }
    void sample() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        auto it = published().find(n);
        QVERIFY2(it != published().end(),
                 qPrintable(QStringLiteral("no expectations for sample %1").arg(name)));
        const Published& pub = it->second;

        const std::string path = samplePath(n);
        bpu::Graph g = bpu::ModelImporter::load(path);
        bpu::ModelMetrics totals;
        auto perNode = bpu::computeAllMetrics(g, &totals);

        // Params and weight bytes equal the file's initializers, counted independently.
        const InitializerCount ref = countInitializers(path);
        QCOMPARE(totals.params, ref.elements);
        QCOMPARE(totals.weightBytes, ref.bytes);
        QCOMPARE(int(g.nodes.size()), ref.nodes);
        // Graph-only: the weights file is absent, and that is a warning, not an error.
        QVERIFY(std::any_of(g.diagnostics.begin(), g.diagnostics.end(), [](const bpu::Diagnostic& d) {
            return d.text.rfind("weights not present", 0) == 0;
        }));

        // Every shape is known; in detectors only what follows NMS/NonZero may stay open.
        int open = 0;
        for (const auto& node : g.nodes) {
            bool complete = true;
            for (bpu::TensorId o : node.outputs)
                complete &= !o.valid() || g.tensor(o).shape.fullyKnown();
            if (complete)
                continue;
            ++open;
            if (!pub.dataDependent)
                QFAIL(qPrintable(QStringLiteral("%1: node %2 (%3) has an open shape: %4")
                                     .arg(name, QString::fromStdString(node.name),
                                          QString::fromStdString(node.opType),
                                          QString::fromStdString(node.shapeError))));
            QVERIFY2(node.dataDependentOn.valid(),
                     qPrintable(QStringLiteral("%1: node %2 (%3) has an open shape not explained by data: %4")
                                    .arg(name, QString::fromStdString(node.name),
                                         QString::fromStdString(node.opType),
                                         QString::fromStdString(node.shapeError))));
            QVERIFY(kValueDependentOps.count(g.node(node.dataDependentOn).opType));
        }
        if (pub.dataDependent) {
            QVERIFY2(open > 0, "a detector with NMS should have data-dependent shapes");
            // Everything that does arithmetic before the NMS is fully shaped.
            for (const auto& node : g.nodes)
                if (node.opType == "Conv")
                    QVERIFY2(perNode[node.id.value].complete, node.name.c_str());
        } else {
            QCOMPARE(open, 0);
            QCOMPARE(totals.nodesIncomplete, 0);
            for (bpu::TensorId out : g.outputs)
                QVERIFY(g.tensor(out).shape.fullyKnown());
        }

        if (pub.gmacs > 0) {
            const double gmacs = double(totals.macs) / 1e9;
            const double tol = std::max(0.02 * pub.gmacs, pub.gmacsRounding);
            qInfo("%s: %.4f GMACs (published %.3f), %.3f M params (published %.3f)", n.c_str(), gmacs,
                  pub.gmacs, double(totals.params) / 1e6, pub.mparams);
            QVERIFY2(std::fabs(gmacs - pub.gmacs) <= tol,
                     qPrintable(QStringLiteral("%1 GMACs vs published %2").arg(gmacs).arg(pub.gmacs)));
            // torch's exporter folds BatchNorm into the convs (one param per channel fewer), hence 2%.
            const double mparams = double(totals.params) / 1e6;
            QVERIFY2(std::fabs(mparams - pub.mparams) <= 0.02 * pub.mparams,
                     qPrintable(QStringLiteral("%1 M params vs published %2").arg(mparams).arg(pub.mparams)));
        }
    }

    // FCOS has no published figure: its FPN and head are counted by hand, and its backbone must cost
    // exactly what efficientnet_b0's features 0-7 cost at the same 512x512 input.
    void fcosMacs() {
        bpu::Graph fcos = bpu::ModelImporter::load(samplePath("fcos_efficientnetb0"));
        bpu::ModelMetrics fcosTotals;
        auto fcosNodes = bpu::computeAllMetrics(fcos, &fcosTotals);

        // Levels P3..P7 at strides 8..128 of 512: 64, 32, 16, 8, 4 -> areas 4096 + 1024 + 256 + 64 + 16.
        const int64_t area3 = 64 * 64, area4 = 32 * 32, area5 = 16 * 16, area6 = 8 * 8, area7 = 4 * 4;
        const int64_t allLevels = area3 + area4 + area5 + area6 + area7; // 5456
        const int64_t conv3x3 = 256 * 256 * 9;                           // one 256->256 3x3 conv, per pixel
        const int64_t laterals = 40 * 256 * area3 + 112 * 256 * area4 + 320 * 256 * area5;
        const int64_t smooth = conv3x3 * (area3 + area4 + area5);
        const int64_t p6p7 = conv3x3 * (area6 + area7);
        const int64_t towers = 2 * 4 * conv3x3 * allLevels; // cls and box towers, 4 convs each, every level
        const int64_t heads = (256 * 9 * 80 + 256 * 9 * 4 + 256 * 9 * 1) * allLevels;
        const int64_t neckAndHead = laterals + smooth + p6p7 + towers + heads;
        // laterals  40*256*4096 + 112*256*1024 + 320*256*256   =     92,274,688
        // smooth    589,824 * (4096 + 1024 + 256)               =  3,170,893,824
        // P6 + P7   589,824 * (64 + 16)                         =     47,185,920
        // towers    8 * 589,824 * 5456                          = 25,744,637,952
        // heads     (184,320 + 9,216 + 2,304) * 5456            =  1,068,503,040
        QCOMPARE(neckAndHead, int64_t(30'123'495'424));

        bpu::ImportOptions at512;
        at512.inputShapes["input"] = {1, 3, 512, 512};
        bpu::Graph effnet = bpu::ModelImporter::load(samplePath("efficientnet_b0"), at512);
        auto effNodes = bpu::computeAllMetrics(effnet);
        int64_t backbone = 0;
        for (int stage = 0; stage <= 7; ++stage) {
            const std::string s = std::to_string(stage);
            const int64_t inFcos = macsWithPrefix(fcos, fcosNodes, "/features." + s + "/");
            const int64_t inEffnet = macsWithPrefix(effnet, effNodes, "/features/features." + s + "/");
            QVERIFY2(inFcos > 0, s.c_str());
            QCOMPARE(inFcos, inEffnet);
            backbone += inFcos;
        }
        QCOMPARE(fcosTotals.macs, backbone + neckAndHead);

        // Outputs: cls 80 / box 4 / centerness 1 per level.
        const int sizes[] = {64, 32, 16, 8, 4};
        for (int level = 0; level < 5; ++level) {
            const int stride = 8 << level, s = sizes[level];
            auto shape = [&](const char* head) {
                auto id = fcos.findTensor(std::string(head) + "_s" + std::to_string(stride));
                return id.valid() ? fcos.tensor(id).shape.toString() : std::string("<missing>");
            };
            const std::string hw = std::to_string(s) + "x" + std::to_string(s);
            QCOMPARE(shape("cls"), "1x80x" + hw);
            QCOMPARE(shape("box"), "1x4x" + hw);
            QCOMPARE(shape("ctr"), "1x1x" + hw);
        }
    }

    // Constants a node reads are parameters, not feature maps: the Clip(min, max) scalars torch exports as
    // Constant nodes (ReLU6 in mobilenet_v2) and the initializers torch shares through Identity nodes
    // (mobilenet_v2's conv biases). So a Clip's only activation input is its data (input elements equal
    // output elements), and a Conv's only activation input is its input 0 while its params count the weight
    // and the bias whichever way the bias arrives.
    void constantsAreNotActivations() {
        bpu::Graph g = bpu::ModelImporter::load(samplePath("mobilenet_v2"));
        const auto metrics = bpu::computeAllMetrics(g);
        auto elements = [&](bpu::TensorId t) {
            return g.tensor(t).shape.elements().value_or(-1);
        };
        int clips = 0, sharedBiases = 0;
        for (const auto& n : g.nodes) {
            const bpu::NodeMetrics& m = metrics[n.id.value];
            if (n.opType == "Clip") {
                ++clips;
                QCOMPARE(m.inputElements, m.outputElements);
                QCOMPARE(m.inputBytes, m.outputBytes);
            }
            if (n.opType != "Conv")
                continue;
            QCOMPARE(m.inputElements, elements(n.inputs[0]));
            int64_t params = elements(n.inputs[1]);
            if (n.inputs.size() > 2 && n.inputs[2].valid()) {
                params += elements(n.inputs[2]);
                const bpu::NodeId p = g.tensor(n.inputs[2]).producer;
                sharedBiases += p.valid() && g.node(p).opType == "Identity";
            }
            QCOMPARE(m.params, params);
        }
        QCOMPARE(clips, 35);         // ReLU6 after every expansion and depthwise conv
        QVERIFY(sharedBiases >= 30); // 39 Identity nodes share equal bias initializers
    }

    // load() parses the file as it reads it, a block at a time; loadBytes() parses one buffer. Both must
    // give the same graph: every sample over the 256 KiB read block crosses a block boundary mid-message.
    void fileAndBytesImportAlike_data() { sample_data(); }
    void fileAndBytesImportAlike() {
        QFETCH(QString, name);
        const std::string path = samplePath(name.toStdString());
        std::ifstream in(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY(!bytes.empty());
        const bpu::Graph streamed = bpu::ModelImporter::load(path);
        const bpu::Graph whole = bpu::ModelImporter::loadBytes(path, bytes);
        QCOMPARE(streamed.nodes.size(), whole.nodes.size());
        QCOMPARE(streamed.tensors.size(), whole.tensors.size());
        QCOMPARE(bpu::diagnosticTexts(streamed.diagnostics), bpu::diagnosticTexts(whole.diagnostics));
        for (size_t i = 0; i < whole.nodes.size(); ++i) {
            QCOMPARE(streamed.nodes[i].name, whole.nodes[i].name);
            QCOMPARE(streamed.nodes[i].opType, whole.nodes[i].opType);
            QCOMPARE(streamed.nodes[i].proto->SerializeAsString(), whole.nodes[i].proto->SerializeAsString());
        }
        for (size_t i = 0; i < whole.tensors.size(); ++i) {
            QCOMPARE(streamed.tensors[i].name, whole.tensors[i].name);
            QCOMPARE(streamed.tensors[i].shape.toString(), whole.tensors[i].shape.toString());
            QCOMPARE(streamed.tensors[i].dtype, whole.tensors[i].dtype);
        }
    }

    // The CLI's JSON agrees with the library on every sample.
    void cliJson_data() { sample_data(); }
    void cliJson() {
        QFETCH(QString, name);
        const std::string path = samplePath(name.toStdString());
        QProcess p;
        p.start(QString::fromStdString(bpu::test::cliPath()),
                {QStringLiteral("info"), QString::fromStdString(path), QStringLiteral("--json"),
                 QStringLiteral("-")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(p.readAllStandardOutput(), &err);
        QVERIFY2(err.error == QJsonParseError::NoError, qPrintable(err.errorString()));
        const QJsonObject root = doc.object();
        QCOMPARE(root.value(QStringLiteral("schema")).toString(), QStringLiteral("bpuscope.info/1"));

        bpu::Graph g = bpu::ModelImporter::load(path);
        bpu::ModelMetrics totals;
        bpu::computeAllMetrics(g, &totals);
        const QJsonObject model = root.value(QStringLiteral("model")).toObject();
        QCOMPARE(model.value(QStringLiteral("path")).toString(), QString::fromStdString(path));
        QCOMPARE(model.value(QStringLiteral("nodes")).toInteger(), qint64(g.nodes.size()));
        QCOMPARE(model.value(QStringLiteral("params")).toInteger(), totals.params);
        QCOMPARE(model.value(QStringLiteral("macs")).toInteger(), totals.macs);
        QCOMPARE(model.value(QStringLiteral("weight_bytes")).toInteger(), totals.weightBytes);
        QCOMPARE(model.value(QStringLiteral("ir_version")).toInteger(), qint64(g.irVersion));
        QCOMPARE(
            model.value(QStringLiteral("opsets")).toObject().value(QStringLiteral("ai.onnx")).toInteger(),
            qint64(g.defaultOpset()));
        qint64 histogramTotal = 0;
        const QJsonObject hist = model.value(QStringLiteral("op_histogram")).toObject();
        for (auto it = hist.begin(); it != hist.end(); ++it)
            histogramTotal += it.value().toInteger();
        QCOMPARE(histogramTotal, qint64(g.nodes.size()));

        const QJsonArray outputs = root.value(QStringLiteral("outputs")).toArray();
        QCOMPARE(outputs.size(), qsizetype(g.outputs.size()));
        for (qsizetype i = 0; i < outputs.size(); ++i) {
            const QJsonObject o = outputs[i].toObject();
            const auto& t = g.tensor(g.outputs[size_t(i)]);
            QCOMPARE(o.value(QStringLiteral("name")).toString(), QString::fromStdString(t.name));
            QCOMPARE(o.value(QStringLiteral("shape_text")).toString(),
                     QString::fromStdString(t.shape.toString()));
            const QJsonArray dims = o.value(QStringLiteral("shape")).toArray();
            QCOMPARE(dims.size(), qsizetype(t.shape.rank()));
            for (qsizetype d = 0; d < dims.size(); ++d)
                QCOMPARE(dims[d].toInteger(), qint64(t.shape.dims[size_t(d)]));
        }
        QCOMPARE(root.value(QStringLiteral("inputs")).toArray().size(), qsizetype(g.inputs.size()));
        QCOMPARE(root.value(QStringLiteral("warnings")).toArray().size(), qsizetype(g.diagnostics.size()));
        const QJsonArray open = root.value(QStringLiteral("nodes_without_shapes")).toArray();
        qsizetype expectedOpen = 0;
        for (const auto& n : g.nodes) {
            bool complete = true;
            for (bpu::TensorId o : n.outputs)
                complete &= !o.valid() || g.tensor(o).shape.fullyKnown();
            expectedOpen += !complete;
        }
        QCOMPARE(open.size(), expectedOpen);
        for (const auto& entry : open) {
            const QJsonObject o = entry.toObject();
            const auto& node = g.node(g.findNode(o.value(QStringLiteral("node")).toString().toStdString()));
            QCOMPARE(o.value(QStringLiteral("op")).toString(), QString::fromStdString(node.opType));
            QCOMPARE(o.value(QStringLiteral("data_dependent")).toBool(), node.dataDependentOn.valid());
            QVERIFY(!o.value(QStringLiteral("reason")).toString().isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestSamples)
#include "tst_samples.moc"
