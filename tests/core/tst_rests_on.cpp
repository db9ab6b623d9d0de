// SPDX-License-Identifier: MIT
// Issue 62, step 2: a finding says what its gain rests on, and a gain resting on a parameter the calibration
// does not identify, or on an assumption no published source states, is marked unproven and is at most
// medium. Each expected value has its reason in the comments: the arithmetic of keysCarryingChange, the
// profile's assumptions block, and where a memory-bound conv's time goes.
#include "CliRun.h"
#include "OnnxFixtures.h"
#include "TestPaths.h"

#include "core/advice/Finding.h"
#include "core/advice/FindingText.h"
#include "core/advice/OptimizationPlan.h"
#include "core/advice/RestsOn.h"
#include "core/analysis/AnalysisResult.h"
#include "core/cost/PricedTime.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"
#include "core/util/SafeFile.h"

#include <QtTest>

#include <algorithm>
#include <nlohmann/json.hpp>

using fixtures::ModelBuilder;

namespace {

std::shared_ptr<const bpu::TargetProfile> s100() {
    static auto p = std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100"));
    return p;
}

/// The built-in s100 profile with `change` applied to its JSON.
std::shared_ptr<const bpu::TargetProfile> s100With(const std::function<void(nlohmann::json&)>& change) {
    const std::string path = bpu::resourceDir() + "/targets/s100.json";
    nlohmann::json doc =
        nlohmann::json::parse(bpu::readUserFile(path, {"target profile", bpu::file_limits::kJson}));
    change(doc);
    return std::make_shared<const bpu::TargetProfile>(bpu::parseTargetProfile(doc, path));
}

// x [1,64,160,160] -> four times (1x1 Conv -> Sigmoid -> Mul): SiLU after every conv, the yolov8 pattern.
std::string siluModel() {
    ModelBuilder b;
    b.input("x", {1, 64, 160, 160});
    std::string in = "x";
    for (int i = 1; i <= 4; ++i) {
        const std::string k = std::to_string(i);
        b.weight("w" + k, {64, 64, 1, 1});
        auto& n = b.node("Conv", {in, "w" + k}, {"c" + k}, "conv" + k);
        fixtures::setInts(n, "kernel_shape", {1, 1});
        b.node("Sigmoid", {"c" + k}, {"s" + k}, "sig" + k);
        b.node("Mul", {"c" + k, "s" + k}, {"m" + k}, "mul" + k);
        in = "m" + k;
    }
    b.output("m4");
    return b.save("rests_on_silu.onnx");
}

// A 3x3 conv 512 -> 512 on [1,512,8,16]: 2.36 MB of weights against 0.13 MB of feature maps, so its DDR
// time (weights) is about twice its compute (tst_analysis_passes g61 works it out): memory-bound, and the
// group-conv fix (G6.1) saves time by loading fewer weight bytes.
std::string memoryBoundConv() {
    ModelBuilder b;
    b.input("x", {1, 512, 8, 16});
    b.weight("w", {512, 512, 3, 3});
    auto& n = b.node("Conv", {"x", "w"}, {"y"}, "conv");
    fixtures::setInts(n, "kernel_shape", {3, 3});
    fixtures::setInts(n, "pads", {1, 1, 1, 1});
    b.output("y");
    return b.save("rests_on_g61.onnx");
}

const bpu::Finding* findingOf(const bpu::Session& s, bpu::RuleId rule) {
    for (const auto& f : s.analysis().findings)
        if (f.rule == rule)
            return &f;
    return nullptr;
}

bool restsOn(const bpu::Finding& f, const std::string& id, bool weak) {
    return std::any_of(f.restsOn.begin(), f.restsOn.end(),
                       [&](const bpu::RestsOn& r) { return r.id == id && r.weak == weak; });
}

bpu::Severity byShare(const bpu::Session& s, const bpu::Finding& f) {
    const bpu::TargetProfile& t = s.target();
    return bpu::severityForShare(*f.estimatedGainMs / s.cost().perImageMs, t.severityHighShare.value,
                                 t.severityMediumShare.value);
}

} // namespace

class TestRestsOn : public QObject {
    Q_OBJECT

private slots:
    // Kinds of term A (keys a, b) 10 -> 4 us and B (key c) 5 -> 1 us: 6 + 4 = 10 us changed. a and b price
    // 6 of them (at least half), c 4 (less); a kind new after the change counts from zero.
    void halfOfTheChange() {
        bpu::PricedTime before, after;
        before.parts["A"] = {{"a", "b"}, 10};
        before.parts["B"] = {{"c"}, 5};
        after.parts["A"] = {{"a", "b"}, 4};
        after.parts["B"] = {{"c"}, 1};
        QCOMPARE(bpu::keysCarryingChange(before, after), (std::vector<std::string>{"a", "b"}));
        // C (key d) appears with 20 us: 30 us changed, d carries 20 of them, a and b 6.
        after.parts["C"] = {{"d"}, 20};
        QCOMPARE(bpu::keysCarryingChange(before, after), (std::vector<std::string>{"d"}));
        // Nothing changed: it rests on nothing.
        QVERIFY(bpu::keysCarryingChange(before, before).empty());
    }

    // The SiLU finding's gain assumes the BPU cannot fuse a LUT activation into the conv: the profile states
    // that assumption with source "none", so the finding is unproven and at most medium, though its gain's
    // share of the latency alone would make it high.
    void siluRestsOnAnUnsourcedAssumption() {
        bpu::Session s(bpu::ModelImporter::load(siluModel()), s100());
        s.estimateFindingGains();
        const bpu::Finding* f = findingOf(s, bpu::RuleId::G3);
        QVERIFY(f && f->estimatedGainMs);
        QCOMPARE(byShare(s, *f), bpu::Severity::High); // four SiLUs on 1.6 M elements each: most of the model
        QVERIFY(restsOn(*f, "lut_activation_separate_layer", true));
        QVERIFY(bpu::anyWeak(f->restsOn));
        QCOMPARE(f->severity, bpu::Severity::Medium);
        QVERIFY(bpu::severityText(*f).find("unproven") != std::string::npos);
        QVERIFY(bpu::findingOutcomeText(*f).find("lut_activation_separate_layer") != std::string::npos);
        QVERIFY(bpu::unprovenProse(*f).find("no published source") != std::string::npos);
        // Its plan step is kept and marked.
        const bpu::OptimizationPlan plan = bpu::buildOptimizationPlanOnCopy(s);
        bool marked = false;
        for (const auto& st : plan.steps)
            if (st.rule == bpu::RuleId::G3)
                marked = st.unproven;
        QVERIFY(marked);
    }

    // The same model and gain with the assumption given a source: nothing weak, the severity by share.
    void aSourcedAssumptionIsNotWeak() {
        const auto sourced = s100With([](nlohmann::json& d) {
            for (auto& a : d["assumptions"])
                if (a["id"] == "lut_activation_separate_layer")
                    a["source"] = "a citation (test)";
        });
        bpu::Session s(bpu::ModelImporter::load(siluModel()), sourced);
        s.estimateFindingGains();
        const bpu::Finding* f = findingOf(s, bpu::RuleId::G3);
        QVERIFY(f && f->estimatedGainMs);
        QVERIFY(restsOn(*f, "lut_activation_separate_layer", false));
        QVERIFY(!bpu::anyWeak(f->restsOn));
        QCOMPARE(f->severity, byShare(s, *f));
        QCOMPARE(f->severity, bpu::Severity::High);
    }

    // A memory-bound conv's group-conv gain is DDR time: it rests on the DDR keys, not on the conv
    // efficiencies. With the stock profile those are identified (not fitted, not at a bound): nothing weak.
    // Marked unidentified in a copy of the profile, the same finding is unproven.
    void memoryBoundGainRestsOnTheDdr() {
        bpu::Session s(bpu::ModelImporter::load(memoryBoundConv()), s100());
        s.estimateFindingGains();
        const bpu::Finding* f = findingOf(s, bpu::RuleId::G6_1);
        QVERIFY(f && f->estimatedGainMs);
        QVERIFY(restsOn(*f, "ddr_effective_fraction", false));
        QVERIFY(!restsOn(*f, "dense_conv_efficiency", false) && !restsOn(*f, "group_conv_efficiency", true));
        QVERIFY(!bpu::anyWeak(f->restsOn));

        const auto unidentified =
            s100With([](nlohmann::json& d) { d["params"]["ddr_effective_fraction"]["identified"] = false; });
        bpu::Session u(bpu::ModelImporter::load(memoryBoundConv()), unidentified);
        u.estimateFindingGains();
        const bpu::Finding* g = findingOf(u, bpu::RuleId::G6_1);
        QVERIFY(g && g->estimatedGainMs);
        QVERIFY(restsOn(*g, "ddr_effective_fraction", true));
        QVERIFY(g->severity != bpu::Severity::High);
        QVERIFY(bpu::weakRestsOnText(g->restsOn).find("ddr_effective_fraction") != std::string::npos);
    }

    // The JSON a script reads says it too: `unproven` and each `rests_on` entry with whether it is weak.
    void jsonSaysUnproven() {
        const auto p = clirun::runCli({"analyze", QString::fromStdString(siluModel()), "--json", "-"});
        QCOMPARE(p.exitCode, 0);
        const auto j = nlohmann::json::parse(p.out.toStdString());
        bool seen = false;
        for (const auto& f : j.at("findings")) {
            if (f.at("rule") != "G3")
                continue;
            seen = true;
            QVERIFY(f.at("unproven") == true);
            QVERIFY(f.at("severity") == "medium");
            bool assumption = false;
            for (const auto& r : f.at("rests_on"))
                assumption =
                    assumption || (r.at("kind") == "assumption" &&
                                   r.at("id") == "lut_activation_separate_layer" && r.at("weak") == true);
            QVERIFY(assumption);
        }
        QVERIFY(seen);
        bool step = false;
        for (const auto& st : j.at("plan"))
            step = step || (st.at("finding").at("rule") == "G3" && st.at("unproven") == true);
        QVERIFY(step);
    }

    // A profile's assumptions block is checked like the rest of it.
    void brokenAssumptionsAreRefused() {
        auto refused = [](const std::function<void(nlohmann::json&)>& change, const std::string& what) {
            try {
                s100With(change);
            } catch (const std::runtime_error& e) {
                return std::string(e.what()).find(what) != std::string::npos;
            }
            return false;
        };
        QVERIFY(refused([](nlohmann::json& d) { d["assumptions"] = 3; }, "expected an array"));
        QVERIFY(refused([](nlohmann::json& d) { d["assumptions"][0]["source"] = ""; }, "non-empty"));
        QVERIFY(refused([](nlohmann::json& d) { d["assumptions"][1]["id"] = d["assumptions"][0]["id"]; },
                        "given twice"));
        QVERIFY(refused([](nlohmann::json& d) { d["assumptions"][0]["weight"] = 1; }, "unknown key"));
    }
};

QTEST_GUILESS_MAIN(TestRestsOn)
#include "tst_rests_on.moc"
