// SPDX-License-Identifier: MIT
// Issue 64, step 1: every hb_compile config BpuScope writes reads the same under PyYAML (YAML 1.1, what
// hb_compile and the vendor's scripts load it with) as under yaml-cpp (YAML 1.2, our reader), field by field.
// Plain, `ON:` is the key True to PyYAML, an input named `on` the value True, `010` the int 8, `2001-12-14` a
// date, `~` None; yaml-cpp reads them all as strings, so a round trip through our own reader hid it. The
// PyYAML side is tests/data/deploy/pyyaml_leaves.py run by Debian's /usr/bin/python3 (python3-yaml).
#include "TestPaths.h"

#include "core/analysis/AnalysisOptions.h"
#include "core/analysis/AnalysisTypes.h"
#include "core/deploy/DeployYaml.h"
#include "core/deploy/DeployYamlWriter.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/model/Graph.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

namespace {

const std::string kData = bpu::test::testDataDir() + "/deploy/";

/// Names YAML 1.1 resolves to something other than the string (PyYAML's resolver.py: bool, null, int,
/// float, timestamp, merge, value) or that YAML syntax gives a meaning (indicators, comments, quotes), and
/// characters PyYAML rejects or folds raw (control bytes, DEL, NEL, LS, BOM).
const std::vector<std::string> kHostile = {"on",
                                           "On",
                                           "ON",
                                           "off",
                                           "Off",
                                           "OFF",
                                           "yes",
                                           "Yes",
                                           "YES",
                                           "no",
                                           "No",
                                           "NO",
                                           "true",
                                           "True",
                                           "TRUE",
                                           "false",
                                           "False",
                                           "FALSE",
                                           "y",
                                           "Y",
                                           "n",
                                           "N",
                                           "null",
                                           "Null",
                                           "NULL",
                                           "~",
                                           "0x10",
                                           "010",
                                           "0o10",
                                           "0b101",
                                           "1e3",
                                           "1.5",
                                           "-1",
                                           "+12",
                                           ".inf",
                                           "-.Inf",
                                           ".NaN",
                                           "1_000",
                                           "190:20:30",
                                           "2001-12-14",
                                           "2001-12-14t21:59:43.10-05:00",
                                           "=",
                                           "<<",
                                           "- a",
                                           "a: b",
                                           "#x",
                                           "x #y",
                                           "'quoted'",
                                           "\"dq\"",
                                           "tab\there",
                                           "lf\nhere",
                                           "nel\xc2\x85x",
                                           "del\x7f",
                                           "ctl\x01",
                                           "bom\xef\xbb\xbf",
                                           "ls\xe2\x80\xa8",
                                           "emoji\xf0\x9f\x98\x80",
                                           "%p",
                                           "@at",
                                           "`tick",
                                           "!tag",
                                           "&anchor",
                                           "*alias",
                                           "|pipe",
                                           ">gt",
                                           "[flow]",
                                           "{map}",
                                           " lead",
                                           "trail ",
                                           "a,b",
                                           "?q",
                                           "\\back"};

/// A graph with an input and a Relu named after each hostile name (an input name holds no ';': the config
/// joins input names with it).
bpu::Graph hostileGraph() {
    bpu::Graph g;
    for (size_t i = 0; i < kHostile.size(); ++i) {
        const bpu::TensorId in = g.internTensor(kHostile[i]);
        g.tensor(in).isGraphInput = true;
        g.tensor(in).shape = bpu::TensorShape({1, 4});
        g.inputs.push_back(in);
        bpu::Node n;
        n.name = kHostile[i];
        n.opType = "Relu";
        n.inputs = {in};
        const bpu::TensorId out = g.internTensor("out" + std::to_string(i));
        n.outputs = {out};
        g.tensor(out).isGraphOutput = true;
        g.outputs.push_back(out);
        g.addNode(std::move(n));
    }
    g.link();
    return g;
}

/// Every hostile name as a node_info entry (placement, and int16 on every third), a removed node (a name
/// without ';', which joins them), and an explicit featuremap input.
bpu::DeploySettings hostileSettings() {
    bpu::DeploySettings d = bpu::DeploySettings::keepIoQdq();
    d.preset = bpu::DeployPreset::Custom;
    d.march = "nash-e";
    for (size_t i = 0; i < kHostile.size(); ++i) {
        d.nodePlacement[kHostile[i]] = i % 2 ? bpu::Placement::CPU : bpu::Placement::BPU;
        if (i % 3 == 0)
            d.nodePrecision[kHostile[i]] = bpu::Precision::Int16;
        d.inputs.push_back(
            {kHostile[i], bpu::InputRuntimeType::Featuremap, bpu::NormType::NoPreprocess, {}, {}});
    }
    d.removeNodeNames = {"off", "null", "2001-12-14"};
    return d;
}

using Leaves = std::map<std::string, std::string>; ///< path (keys joined by '\x1f') -> scalar as written

void flatten(const YAML::Node& n, const std::string& path, Leaves& out) {
    if (n.IsMap()) {
        for (const auto& kv : n)
            flatten(kv.second, path + "\x1f" + kv.first.as<std::string>(), out);
    } else if (n.IsSequence()) {
        for (size_t i = 0; i < n.size(); ++i)
            flatten(n[i], path + "\x1f" + std::to_string(i), out);
    } else {
        out[path] = n.IsNull() ? std::string("<null>") : n.as<std::string>();
    }
}

std::optional<double> asNumber(const std::string& s) {
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc{} && end == s.data() + s.size() ? std::optional<double>(v) : std::nullopt;
}

/// Reads `files` with PyYAML: per file, its leaves with their PyYAML types (a key that is not a string is
/// reported as an error in its path).
std::map<std::string, std::map<std::string, std::pair<std::string, std::string>>>
readWithPyYaml(const QStringList& files, QString* error) {
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"),
            QStringList{QString::fromStdString(kData + "pyyaml_leaves.py")} + files);
    if (!p.waitForFinished(120000) || p.exitCode() != 0) {
        *error = QStringLiteral("python3 failed: %1").arg(QString::fromUtf8(p.readAllStandardError()));
        return {};
    }
    std::map<std::string, std::map<std::string, std::pair<std::string, std::string>>> out;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const auto j = nlohmann::json::parse(line.toStdString());
        const std::string file = j["file"];
        if (j.contains("error")) {
            *error += QStringLiteral("%1: PyYAML rejects it: %2\n")
                          .arg(QString::fromStdString(file), QString::fromStdString(j["error"]));
            continue;
        }
        std::string path;
        for (const auto& k : j["path"]) {
            if (k[0] != "str" && k[0] != "index")
                *error += QStringLiteral("%1: PyYAML reads the key '%2' as a %3\n")
                              .arg(QString::fromStdString(file), QString::fromStdString(k[1]),
                                   QString::fromStdString(k[0]));
            path += "\x1f" + k[1].get<std::string>();
        }
        out[file][path] = {j["type"], j["value"]};
    }
    return out;
}

} // namespace

class TestYamlReaders : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QStringList files_;
    std::map<std::string, std::string> texts_; ///< file -> what the writer wrote

    void write(const std::string& name, const std::string& text) {
        const std::string path = dir_.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << text;
        files_ << QString::fromStdString(path);
        texts_[path] = text;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // The configs the writer makes: the keep-io-qdq preset on every sample, each test config on the
        // model it was written for, and the hostile names.
        for (const char* sample : {"yolov8n.onnx", "resnet18.onnx", "mobilenet_v2.onnx", "yolo12n.onnx",
                                   "ssdlite320_mobilenet_v3_large.onnx", "fcos_efficientnetb0.onnx"}) {
            const bpu::Graph g = bpu::ModelImporter::load(bpu::test::samplesDir() + "/" + sample);
            write(std::string(sample) + ".keep-io-qdq.yaml",
                  bpu::deployToYaml(bpu::DeploySettings::keepIoQdq(), g, {sample, "nash-e", ""}));
        }
        const bpu::Graph yolo = bpu::ModelImporter::load(bpu::test::samplesDir() + "/yolov8n.onnx");
        const bpu::Graph resnet = bpu::ModelImporter::load(bpu::test::samplesDir() + "/resnet18.onnx");
        for (const char* config : {"yolov8n_nv12.yaml", "featuremap_keep_qdq.yaml", "int16_mixed.yaml"})
            write(std::string("config.") + config,
                  bpu::deployToYaml(bpu::loadDeploy(kData + config),
                                    std::string(config).rfind("yolo", 0) == 0 ? yolo : resnet,
                                    {"model.onnx", "", ""}));
        write("hostile.yaml", bpu::deployToYaml(hostileSettings(), hostileGraph(), {"on.onnx", "", "off"}));
        // The normalisation cases (issue 64): the graph's own (no_preprocess and a comment), and the one
        // move_input_normalization takes out of it (mean_value / scale_value as numbers, plain).
        const std::string norm = bpu::test::testDataDir() + "/families/input_norm.onnx";
        write("norm.fast-perf.yaml", bpu::deployToYaml(bpu::DeploySettings::fastPerf(),
                                                       bpu::ModelImporter::load(norm), {"n.onnx", "", ""}));
        bpu::Session moved(bpu::ModelImporter::load(norm),
                           std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100")));
        bpu::applyEditList(moved, bpu::editListFromJson(nlohmann::json::parse(
                                      R"([{"op": "move_input_normalization", "input": "image"}])")));
        const std::string movedText =
            bpu::deployToYaml(bpu::compileDeploy(moved.options()), moved.graph(), {"n.onnx", "", ""});
        QVERIFY2(movedText.find("mean_value: ") != std::string::npos, movedText.c_str());
        write("norm.moved.yaml", movedText);
    }

    // PyYAML reads each config as yaml-cpp does: the same keys, every key a string, every value the same
    // string, and numbers only where the writer leaves them plain (mean_value / scale_value), equal.
    void pyyamlReadsWhatYamlCppReads() {
        QString error;
        const auto py = readWithPyYaml(files_, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(py.size(), size_t(files_.size()));
        for (const auto& [file, text] : texts_) {
            Leaves cpp;
            flatten(YAML::Load(text), "", cpp);
            const auto& theirs = py.at(file);
            QVERIFY2(cpp.size() == theirs.size(), file.c_str());
            for (const auto& [path, value] : cpp) {
                const auto it = theirs.find(path);
                QVERIFY2(it != theirs.end(), (file + ": PyYAML has no " + path).c_str());
                const auto& [type, pyValue] = it->second;
                const std::string where = file + ":" + path + " = '" + value + "' (PyYAML: " + type + ")";
                if (type == "str") {
                    QVERIFY2(pyValue == value, where.c_str());
                    continue;
                }
                const bool numeric = path.find("mean_value") != std::string::npos ||
                                     path.find("scale_value") != std::string::npos;
                QVERIFY2(numeric && (type == "int" || type == "float"), where.c_str());
                QVERIFY2(asNumber(value) && asNumber(pyValue) && *asNumber(value) == *asNumber(pyValue),
                         where.c_str());
            }
        }
    }

    // The hostile names come back as themselves through our own reader too (quoting changed nothing it
    // reads), and the file is what the vendor's examples write: names, placements and precisions quoted.
    void hostileNamesReadBack() {
        const std::string text = texts_.at(dir_.filePath(QStringLiteral("hostile.yaml")).toStdString());
        const bpu::DeploySettings back = bpu::parseDeployYaml(text, "hostile.yaml");
        const bpu::DeploySettings want = hostileSettings();
        QCOMPARE(back.nodePlacement.size(), want.nodePlacement.size());
        for (const auto& [name, p] : want.nodePlacement)
            QVERIFY2(back.nodePlacement.count(name) && back.nodePlacement.at(name) == p, name.c_str());
        QVERIFY(back.nodePrecision == want.nodePrecision);
        QVERIFY(back.removeNodeNames == want.removeNodeNames);
        QVERIFY2(text.find("'ON': 'CPU'") != std::string::npos, text.c_str());
        QVERIFY2(text.find("'off':") != std::string::npos, text.c_str());
        // A control byte is escaped in double quotes, never written raw.
        QVERIFY(text.find('\x01') == std::string::npos && text.find('\x7f') == std::string::npos);
    }

    // Text that is not UTF-8, or holds a noncharacter, has no form in the file yaml-cpp writes: refused,
    // naming it, rather than written as U+FFFD (a name hb_compile would not find).
    void notUtf8IsRefused() {
        for (const char* bad : {"bad\xff", "over\xc0\xaf", "fffe\xef\xbf\xbe", "fdd0\xef\xb7\x90"}) {
            bpu::DeploySettings d = bpu::DeploySettings::keepIoQdq();
            d.nodePlacement[bad] = bpu::Placement::CPU;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                     bpu::deployToYaml(d, hostileGraph(), {"m.onnx", "", ""}));
        }
        // A model input named with ';', the separator of input_name's list, has no form there either.
        bpu::Graph semi;
        const bpu::TensorId in = semi.internTensor("left;right");
        semi.tensor(in).isGraphInput = true;
        semi.tensor(in).shape = bpu::TensorShape({1, 4});
        semi.inputs.push_back(in);
        semi.link();
        try {
            bpu::deployToYaml(bpu::DeploySettings::keepIoQdq(), semi, {"m.onnx", "", ""});
            QFAIL("an input name holding ';' was written into input_name");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("'left;right'") != std::string::npos &&
                         std::string(e.what()).find("input_name") != std::string::npos,
                     e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestYamlReaders)
#include "tst_yaml_readers.moc"
