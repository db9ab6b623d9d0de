// SPDX-License-Identifier: MIT
// The workbench on big-but-legal input (issue 15), which the CLI handled and the GUI froze on: the
// inspector's text for a rank-100k input or a node with 100k outputs is bounded (it is laid out on the GUI
// thread), and an edit list of 20,000 edits lands as one undo step and one re-estimate with the same result
// as its net effect. The models come from make_hostile.py --big (onnx's Python helper).
#include "TestPaths.h"
#include "WorkbenchFixture.h"
#include "WorkbenchNumbers.h"
#include "core/edit/EditList.h"

#include "core/edit/Session.h"
#include "ui/inspector/NodeDetails.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace bpu;
using namespace bpu::ui;

class TestHostileGui : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString big(const char* file) const { return dir_.filePath(QLatin1String(file)); }

private slots:
    void initTestCase() {
        fixture::isolateSettings();
        QVERIFY(dir_.isValid());
        QProcess py;
        py.start(QStringLiteral("/usr/bin/python3"),
                 {QString::fromStdString(bpu::test::testDataDir() + "/hostile/make_hostile.py"),
                  QStringLiteral("--big"), dir_.path()});
        QVERIFY(py.waitForFinished(300000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        QVERIFY(QFile::exists(big("rank_100k.onnx")));
    }

    // The inspector of a Relu on a rank-100,000 input: the shape shows its first 16 dims and the rank (a
    // 200 kB string before); the padding rules of its 100k padded dims show 8 and a count.
    void inspectorOfARank100kInput() {
        MainWindow w;
        w.openModel(big("rank_100k.onnx"));
        QVERIFY(fixture::waitSettled(w, {}, 240000));
        const auto s = w.snapshot();
        const NodeId relu = s->graph->findNode("relu");
        QVERIFY(relu.valid());
        const QString html = nodeDetailsHtml(*s, relu);
        QVERIFY2(html.contains(QStringLiteral("x...(100000 dims)")), qPrintable(html.left(2000)));
        QVERIFY2(html.size() < 20000, qPrintable(QString::number(html.size())));
    }

    // A Split with 100,000 outputs: 32 rows and "... 99968 more outputs" (100,000 - 32).
    void inspectorOfANodeWith100kOutputs() {
        MainWindow w;
        w.openModel(big("outputs_100k.onnx"));
        QVERIFY(fixture::waitSettled(w, {}, 240000));
        const auto s = w.snapshot();
        const NodeId split = s->graph->findNode("split");
        QVERIFY(split.valid());
        QCOMPARE(s->graph->node(split).outputs.size(), size_t(100000));
        const QString html = nodeDetailsHtml(*s, split);
        QVERIFY2(html.contains(QStringLiteral("... 99968 more outputs")), qPrintable(html.right(2000)));
        QVERIFY2(html.size() < 30000, qPrintable(QString::number(html.size())));
    }

    // 20,000 placement overrides over mobilenet_v2's nodes, each node overridden many times: one undo step,
    // every edit in the snapshot's list, and the estimate of its net effect (the last override per node,
    // applied as a short list to a second window) - then undo gives back every number of the baseline.
    void editListOfTwentyThousand() {
        MainWindow w;
        w.openModel(fixture::sample("mobilenet_v2.onnx"));
        QVERIFY(fixture::waitSettled(w));
        const QStringList baseline = fixture::numbers(w);
        const auto s = w.snapshot();
        std::vector<std::string> names;
        for (const auto& n : s->graph->nodes)
            names.push_back(n.name);
        nlohmann::json list = nlohmann::json::array();
        std::map<std::string, std::string> last;
        for (int i = 0; i < 20000; ++i) {
            const std::string& node = names[size_t(i * 7919) % names.size()];
            const std::string placement = (i / 3) % 2 ? "CPU" : "BPU";
            list.push_back({{"op", "set_placement"}, {"node", node}, {"placement", placement}});
            last[node] = placement;
        }
        w.applyEditList(bpu::editListFromJson({{"edits", list}}), QStringLiteral("big.json"));
        QVERIFY(fixture::waitSettled(
            w, [](const Snapshot& s) { return s.edits.size() == 20000; }, 240000));
        QCOMPARE(w.snapshot()->history.size(), 1); // one undo step for the whole list
        const double edited = w.snapshot()->cost.totalUs;

        nlohmann::json net = nlohmann::json::array();
        for (const auto& [node, placement] : last)
            net.push_back({{"op", "set_placement"}, {"node", node}, {"placement", placement}});
        MainWindow w2;
        w2.openModel(fixture::sample("mobilenet_v2.onnx"));
        QVERIFY(fixture::waitSettled(w2));
        w2.applyEditList(bpu::editListFromJson({{"edits", net}}), QStringLiteral("net.json"));
        QVERIFY(fixture::waitSettled(w2, [&](const Snapshot& s) { return s.edits.size() == net.size(); }));
        QCOMPARE(w2.snapshot()->cost.totalUs, edited);
        QVERIFY(edited != s->cost.totalUs); // the overrides change something

        w.controller()->undo();
        QVERIFY(fixture::waitSettled(w, [](const Snapshot& s) { return s.edits.empty(); }));
        QCOMPARE(fixture::numbers(w), baseline);
    }
};

QTEST_MAIN(TestHostileGui)
#include "tst_hostile_gui.moc"
