// SPDX-License-Identifier: MIT
// Issue 62, step 1: findings rank by gain in the user's objective. ResNet-18 at 224 (samples/) loads its
// weights for 69% of the BPU time at batch 1, so the batch rule (G6.5) fires: batching shares each weight
// load among the images, so the images per second rise, but every frame waits for the whole batch, so one
// frame's latency rises. Under `latency` (the default) that is no gain; under `throughput` it is one.
#include "CliRun.h"
#include "TestPaths.h"

#include "core/advice/Finding.h"
#include "core/advice/OptimizationPlan.h"
#include "core/analysis/AnalysisResult.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QtTest>
#include <map>
#include <nlohmann/json.hpp>

namespace {

std::shared_ptr<const bpu::TargetProfile> s100() {
    static auto p = std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100"));
    return p;
}

bpu::Session resnet18(bpu::Objective o) {
    bpu::Session s(bpu::ModelImporter::load(bpu::test::samplesDir() + "/resnet18.onnx"), s100());
    s.setObjective(o);
    s.estimateFindingGains();
    return s;
}

const bpu::Finding* batchFinding(const bpu::Session& s) {
    for (const auto* list : {&s.analysis().findings, &s.analysis().foldedFindings})
        for (const bpu::Finding& f : *list)
            if (f.rule == bpu::RuleId::G6_5)
                return &f;
    return nullptr;
}

} // namespace

class TestObjective : public QObject {
    Q_OBJECT

private slots:
    void latencyCountsNoGainForABatch() {
        bpu::Session s = resnet18(bpu::Objective::Latency);
        const bpu::Finding* f = batchFinding(s);
        QVERIFY(f);
        QVERIFY(!f->fix.empty());
        QVERIFY(!f->estimatedGainMs);
        QCOMPARE(f->severity, bpu::Severity::Low);
        QVERIFY(f->fpsGain && *f->fpsGain > 0);                       // more images per second
        QVERIFY(f->evidence.at("latency_gain_ms").get<double>() < 0); // one frame waits longer
        // Listed after every finding whose fix saves one frame time.
        const auto& list = s.analysis().findings;
        const auto at =
            std::find_if(list.begin(), list.end(), [](const auto& x) { return x.rule == bpu::RuleId::G6_5; });
        for (auto it = at; it != list.end(); ++it)
            QVERIFY2(!it->estimatedGainMs, it->title.c_str());
        // Never a plan step.
        const bpu::OptimizationPlan plan = bpu::buildOptimizationPlanOnCopy(s);
        for (const auto& step : plan.steps)
            QVERIFY(step.rule != bpu::RuleId::G6_5);
    }

    void throughputRanksByFps() {
        bpu::Session s = resnet18(bpu::Objective::Throughput);
        const bpu::Finding* f = batchFinding(s);
        QVERIFY(f && f->estimatedGainMs && f->fpsGain);
        const double fps = s.cost().fpsByThreads[1];
        const bpu::TargetProfile& t = *s100();
        double previous = std::numeric_limits<double>::infinity();
        for (const auto& x : s.analysis().findings) {
            if (!x.estimatedGainMs)
                continue;
            QVERIFY(x.fpsGain);
            QVERIFY2(*x.fpsGain <= previous, x.title.c_str());
            previous = *x.fpsGain;
            QCOMPARE(x.severity, bpu::severityForShare(*x.fpsGain / fps, t.severityHighShare.value,
                                                       t.severityMediumShare.value));
        }
    }

    // The plan in two parts: fasterrcnn's fixes that move Gemms and its post-processing off the CPU need no
    // retraining (a placement, a cut); its activation and channel changes do. Every step of the first part
    // comes before every step of the second, each part's subtotal is its own steps' latency change, and the
    // two add up to the plan's combined gain.
    void planInTwoParts() {
        bpu::Session s(
            bpu::ModelImporter::load(bpu::test::samplesDir() + "/fasterrcnn_mobilenet_v3_large_320_fpn.onnx"),
            s100());
        s.estimateFindingGains();
        std::map<std::string, bool> retrains; // by finding cause
        for (const auto& f : s.analysis().findings)
            if (f.fixEffects)
                retrains[f.cause] = f.fixEffects->costs.has(bpu::EditCost::NeedsRetraining);
        const bpu::OptimizationPlan plan = bpu::buildOptimizationPlan(s);
        QVERIFY(plan.steps.size() >= 2);
        const size_t split = plan.firstRetrainingStep();
        QVERIFY2(split > 0 && split < plan.steps.size(), "fasterrcnn's plan has both parts");
        for (size_t i = 0; i < plan.steps.size(); ++i) {
            QCOMPARE(plan.steps[i].retrains, i >= split);
            QCOMPARE(plan.steps[i].retrains, retrains.at(plan.steps[i].cause));
        }
        QCOMPARE(plan.steps[0].rule, bpu::RuleId::G1_2);
        QCOMPARE(plan.partGainMs(false), plan.perImageMsBefore - plan.steps[split - 1].perImageMsAfter);
        QVERIFY(std::abs(plan.partGainMs(false) + plan.partGainMs(true) - plan.combinedGainMs()) < 1e-12);
    }

    // The command line: --objective, the JSON's `objective`, the report names it, a typo is a usage error.
    void commandLine() {
        const QString model = QString::fromStdString(bpu::test::samplesDir() + "/resnet18.onnx");
        const auto def =
            clirun::runCli({QStringLiteral("analyze"), model, QStringLiteral("--json"), QStringLiteral("-")});
        QCOMPARE(def.exitCode, 0);
        QCOMPARE(nlohmann::json::parse(def.out.toStdString())["objective"].get<std::string>(),
                 std::string("latency"));
        const auto thr =
            clirun::runCli({QStringLiteral("analyze"), model, QStringLiteral("--objective"),
                            QStringLiteral("throughput"), QStringLiteral("--json"), QStringLiteral("-")});
        QCOMPARE(thr.exitCode, 0);
        const auto doc = nlohmann::json::parse(thr.out.toStdString());
        QCOMPARE(doc["objective"].get<std::string>(), std::string("throughput"));
        QCOMPARE(doc["findings"][0]["rule"].get<std::string>(), std::string("G6.5"));
        const auto bad = clirun::runCli(
            {QStringLiteral("analyze"), model, QStringLiteral("--objective"), QStringLiteral("fps")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--objective takes latency or throughput, got 'fps'"), bad.err.constData());
        const auto md = clirun::runCli({QStringLiteral("report"), model, QStringLiteral("--format"),
                                        QStringLiteral("md"), QStringLiteral("-o"), QStringLiteral("-")});
        QCOMPARE(md.exitCode, 0);
        QVERIFY2(md.out.contains("Objective") && md.out.contains("latency (one frame)"),
                 md.out.left(3000).constData());
    }
};

QTEST_GUILESS_MAIN(TestObjective)
#include "tst_objective.moc"
