// SPDX-License-Identifier: MIT
// What the advisor hands a person (issues 45 and 46), on the models the issues name: a list one can read
// (at most findings_max = 15 findings, the rest folded), one finding per change (no two listed findings with
// the same fix; a change two rules propose is one finding with the other under `also`), one finding per
// rule and kind of fix (alike findings grouped, their occurrences listed), severity only from a concrete
// fix's gain, and a plan of concrete fixes only.
#include "SampleFiles.h"

#include "core/advice/FindingText.h"
#include "core/advice/OptimizationPlan.h"
#include "core/edit/Edit.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/io/AnalysisJson.h"
#include "core/model/ModelImporter.h"

#include <QtTest>

#include <map>
#include <set>

namespace {

/// The edit kinds of a list, sorted ("set_group"), as the issue defines "kind of fix".
std::string kinds(const bpu::EditList& edits) {
    std::set<std::string> ops;
    for (const auto& e : edits)
        ops.insert(e->toJson()["op"].get<std::string>());
    std::string out;
    for (const auto& op : ops)
        out += op + "+";
    return out;
}

std::string editsText(const bpu::EditList& edits) {
    std::string out;
    for (const auto& e : edits)
        out += e->describe() + "\n";
    return out;
}

} // namespace

class TestAdvice : public QObject {
    Q_OBJECT

private slots:
    void readableHonestList_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"yolov8n.onnx", "resnet50.onnx", "ssdlite320_mobilenet_v3_large.onnx",
                              "yolo12n.onnx", "resnet18_qat.onnx", "fcos_efficientnetb0.onnx"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void readableHonestList() {
        QFETCH(QString, file);
        const auto t = samples::s100();
        QCOMPARE(t->findingsMax.value, 15.0); // the bound, as the profile states it
        bpu::Session s(bpu::ModelImporter::load(samples::samplePath(file.toStdString())), t);
        s.estimateFindingGains();
        const auto& fs = s.analysis().findings;
        QVERIFY(!fs.empty());
        QVERIFY2(fs.size() <= 15, qPrintable(QString::number(fs.size())));
        // Folded only beyond a full list, and never ranked above a listed finding.
        const auto& folded = s.analysis().foldedFindings;
        QVERIFY(folded.empty() || fs.size() == 15);
        for (const auto& f : folded)
            QVERIFY(f.estimatedGainMs.value_or(0) <= fs.back().estimatedGainMs.value_or(0));
        std::set<std::string> fixes, ruleKinds;
        for (const auto& f : fs) {
            const std::string what = file.toStdString() + ": [" + bpu::ruleName(f.rule) + "] " + f.title;
            if (!f.fix.empty())
                QVERIFY2(fixes.insert(editsText(f.fix)).second,
                         ("two findings with one fix: " + what).c_str());
            // A fix chosen by a search (the input size, issue 48) is its own kind, fix offered or not.
            const std::string kind = std::string(bpu::ruleName(f.rule)) + "|" + kinds(f.fix) + "|" +
                                     kinds(f.whatIf) +
                                     (f.fixSearch == bpu::FixSearch::InputResolution ? "|input size" : "") +
                                     (f.evidence.contains("fix_not_applicable") ? "|n/a" : "") +
                                     (f.unavoidable ? "|unavoidable" : ""); // issue 62: a model output's
            QVERIFY2(ruleKinds.insert(kind).second,
                     ("two findings of one rule and kind of fix: " + what).c_str());
            if (f.severity != bpu::Severity::Low)
                QVERIFY2(f.estimatedGainMs && !f.fix.empty(),
                         ("medium/high without a concrete gain: " + what).c_str());
            for (const auto& e : f.fix)
                QVERIFY2(!e->idealized(), what.c_str());
            // The waste's cost is an upper bound on what its fix saves.
            if (f.estimatedGainMs && f.wasteUpperBoundMs)
                QVERIFY2(*f.estimatedGainMs <= *f.wasteUpperBoundMs + 1e-9, what.c_str());
            // A group lists each occurrence it holds; its nodes cover theirs.
            if (!f.occurrences.empty()) {
                QVERIFY(f.occurrences.size() >= 2);
                std::set<uint32_t> nodes;
                for (bpu::NodeId n : f.nodes)
                    nodes.insert(n.value);
                for (const auto& o : f.occurrences) {
                    QCOMPARE(o.rule, f.rule);
                    for (bpu::NodeId n : o.nodes)
                        QVERIFY2(nodes.count(n.value), what.c_str());
                }
            }
        }
        const bpu::OptimizationPlan plan = bpu::buildOptimizationPlan(s);
        for (const auto& st : plan.steps)
            for (const auto& e : st.edits)
                QVERIFY2(!e->idealized(), st.title.c_str());
    }

    // ssdlite320: its post-processing cut is proposed by G1.2 (the tail on the CPU) and G1.1 (the Q/DQ passes
    // at the tail's CPU edges): one finding, under G1.2, with G1.1 under `also`. Its G4.2 padded shapes (13
    // findings before) are one finding listing them.
    void oneChangeOneFinding() {
        bpu::Session s(bpu::ModelImporter::load(samples::samplePath("ssdlite320_mobilenet_v3_large.onnx")),
                       samples::s100());
        s.estimateFindingGains();
        const bpu::Finding* cut = nullptr;
        int g42 = 0;
        for (const auto& f : s.analysis().findings) {
            if (!f.fix.empty() && f.fix.front()->toJson()["op"] == "cut_at") {
                QVERIFY2(!cut, "one finding proposes the cut");
                cut = &f;
            }
        }
        // The padded stages' what-ifs (assume_aligned) without a fix, listed or folded: one finding (those
        // with a channel-count fix are one finding of their own kind).
        for (const auto* list : {&s.analysis().findings, &s.analysis().foldedFindings})
            for (const auto& f : *list)
                g42 += f.rule == bpu::RuleId::G4_2 && kinds(f.whatIf) == "assume_aligned+" && f.fix.empty() &&
                       f.fixSearch != bpu::FixSearch::InputResolution && // the input size is one of its own
                       !f.unavoidable; // and the padding of a model output's channels (issue 62)
        QVERIFY(cut);
        QCOMPARE(cut->rule, bpu::RuleId::G1_2);
        QCOMPARE(cut->also.size(), size_t(1));
        QCOMPARE(cut->also[0].rule, bpu::RuleId::G1_1);
        QCOMPARE(g42, 1);
    }

    // The list is cut at the profile's findings_max: with 3, ssdlite (nine findings) lists the three of
    // largest gain and folds the other six, whole and still ranked, into foldedFindings; the JSON carries
    // both and the text says how many are folded. The same session, findings_max 15: nothing folded.
    void foldedBeyondTheMax() {
        auto small = std::make_shared<bpu::TargetProfile>(*samples::s100());
        small->findingsMax.value = 3;
        const std::string path = samples::samplePath("ssdlite320_mobilenet_v3_large.onnx");
        bpu::Session full(bpu::ModelImporter::load(path), samples::s100());
        full.estimateFindingGains();
        QVERIFY(full.analysis().foldedFindings.empty());
        const auto& all = full.analysis().findings;
        QVERIFY(all.size() > 3);
        bpu::Session s(bpu::ModelImporter::load(path), small);
        s.estimateFindingGains();
        const auto& listed = s.analysis().findings;
        const auto& folded = s.analysis().foldedFindings;
        QCOMPARE(listed.size(), size_t(3));
        QCOMPARE(listed.size() + folded.size(), all.size());
        for (size_t i = 0; i < all.size(); ++i)
            QCOMPARE((i < 3 ? listed[i] : folded[i - 3]).title, all[i].title);
        const nlohmann::json doc = bpu::analysisJson(s.graph(), s.target(), s.analysis(), &s.cost());
        QCOMPARE(doc["findings"].size(), size_t(3));
        QCOMPARE(doc["folded_findings"].size(), folded.size());
        const std::string line = bpu::foldedSummaryText(folded);
        QVERIFY2(line.rfind(std::to_string(folded.size()) + " more findings", 0) == 0, line.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAdvice)
#include "tst_advice.moc"
