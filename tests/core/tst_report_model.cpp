// SPDX-License-Identifier: MIT
// The report document model (core/report, Qt-free) and its text renderers: the Markdown and JSON carry the
// model name, the top finding's rule and the FPS `bpuscope-cli analyze --json -` reports for the same input;
// with edits both the baseline and the edited FPS; every table is well formed; the HTML is self-contained.
#include "CliRun.h"
#include "OnnxFixtures.h"
#include "SampleFiles.h"
#include "TestPaths.h"

#include "core/analysis/AnalysisResult.h"
#include "core/analysis/Roofline.h"
#include "core/cost/LatencyFigures.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/report/ReportBuilder.h"
#include "core/report/ReportFormat.h"
#include "core/report/ReportRenderers.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include <QProcess>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace {

using bpu::report::ReportDocument;

using samples::samplePath;

/// `bpuscope-cli analyze MODEL --json - [extra]` parsed.
nlohmann::json analyzeJson(const std::string& model, const QStringList& extra = {}) {
    const clirun::Proc p =
        clirun::runCli(QStringList{QStringLiteral("analyze"), QString::fromStdString(model),
                                   QStringLiteral("--json"), QStringLiteral("-")} +
                           extra,
                       120000);
    if (p.exitCode != 0)
        return nullptr;
    return nlohmann::json::parse(p.out.toStdString(), nullptr, false);
}

/// A session like the CLI builds it: import, optional edits (baseline kept), finding gains.
struct Built {
    std::optional<bpu::Session> session, baseline;
    ReportDocument doc;
};

Built build(const std::string& model, const nlohmann::json& edits = nullptr, bool calibration = false) {
    Built b;
    b.session.emplace(bpu::ModelImporter::load(model), samples::s100());
    bpu::report::ReportInput in;
    if (!edits.is_null()) {
        b.baseline.emplace(*b.session);
        in.edits = bpu::editListFromJson(edits);
        bpu::applyEditList(*b.session, in.edits);
        in.baseline = &*b.baseline;
    }
    b.session->estimateFindingGains();
    in.session = &*b.session;
    in.calibration = calibration;
    in.generatedAt = "2025-01-01 00:00";
    b.doc = bpu::report::buildReport(in);
    return b;
}

bool contains(const std::string& hay, const std::string& needle) {
    return hay.find(needle) != std::string::npos;
}

/// The section of `doc` with this id.
const bpu::report::Section& section(const ReportDocument& doc, const std::string& id) {
    for (const auto& s : doc.sections)
        if (s.id == id)
            return s;
    throw std::runtime_error("no section " + id);
}

/// Cells of one Markdown table row (unescaped pipes separate them).
int markdownCells(const std::string& line) {
    int pipes = 0;
    for (size_t i = 0; i < line.size(); ++i)
        if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
            ++pipes;
    return pipes - 1;
}

} // namespace

class TestReportModel : public QObject {
    Q_OBJECT
private slots:
    void rulesFile() {
        const bpu::report::GuideRules rules = bpu::report::loadGuideRules();
        for (const char* id :
             {"G1.1", "G1.2", "G3", "G4.1", "G4.2", "G4.3", "G6.1", "G6.2", "G6.3", "G6.4", "G6.5", "G6.6"}) {
            const bpu::report::GuideRule* r = rules.find(id);
            QVERIFY2(r, id);
            QVERIFY2(r->text.size() > 40, id);
            QVERIFY2(!r->title.empty(), id);
        }
        QCOMPARE(rules.parentOf("G4.2")->id, std::string("G4"));
        QVERIFY(rules.find("G9") == nullptr);
        const std::string bad = fixtures::writeBytes("rules-bad.json", R"({"schema": "x", "rules": []})");
        try {
            bpu::report::loadGuideRules(bad);
            QFAIL("a rules file with the wrong schema must be rejected");
        } catch (const std::runtime_error& e) {
            QVERIFY2(contains(e.what(), bad), e.what());
        }
    }

    void textReports_data() {
        QTest::addColumn<QString>("model");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n.onnx");
        QTest::addRow("resnet50") << QStringLiteral("resnet50.onnx");
        QTest::addRow("mobilenet_v2") << QStringLiteral("mobilenet_v2.onnx");
    }
    void textReports() {
        QFETCH(QString, model);
        const std::string path = samplePath(model.toStdString());
        const nlohmann::json analyzed = analyzeJson(path);
        QVERIFY2(analyzed.is_object(), "analyze --json - failed");
        const std::string fps = bpu::report::fmt::fps(analyzed["summary"]["fps"].get<double>());
        const std::string rule = analyzed["findings"].at(0)["rule"];
        const std::string name = model.chopped(5).toStdString();

        Built b = build(path);
        QCOMPARE(b.doc.modelName, name);
        QCOMPARE(b.doc.sections.size(), size_t(8));
        const std::vector<std::string> ids{"summary", "findings", "hotspots", "layers",
                                           "charts",  "graph",    "whatif",   "method"};
        for (size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(b.doc.sections[i].id, ids[i]);

        const std::string md = bpu::report::renderMarkdown(b.doc);
        QVERIFY2(contains(md, name), name.c_str());
        QVERIFY2(contains(md, fps + " FPS"), fps.c_str());
        QVERIFY2(contains(md, "#1 " + rule + ": "), rule.c_str());
        QVERIFY(contains(md, "No what-if edits were applied"));
        // The top finding's rule text is quoted from the guide (its "<=" as "&lt;=": Markdown escapes "<").
        const auto rules = bpu::report::loadGuideRules();
        QString quoted = QString::fromStdString(rules.find(rule)->text);
        quoted.replace(QLatin1Char('<'), QStringLiteral("&lt;"));
        QVERIFY2(contains(md, quoted.toStdString()), rule.c_str());

        const nlohmann::json j = bpu::report::reportJson(b.doc);
        QCOMPARE(j["schema"].get<std::string>(), std::string("bpuscope.report/1"));
        QCOMPARE(j["model"].get<std::string>(), name);
        QCOMPARE(j["facts"]["fps_text"].get<std::string>(), fps);
        QCOMPARE(j["facts"]["top_finding"]["rule"].get<std::string>(), rule);
        QVERIFY(j["facts"]["baseline"].is_null());
        QCOMPARE(j["sections"].size(), size_t(8));
        QVERIFY(contains(j.dump(), fps + " FPS"));

        // Every Markdown table row has as many cells as its header.
        std::istringstream lines(md);
        std::string line;
        int expected = -1, tables = 0;
        while (std::getline(lines, line)) {
            if (line.rfind("|", 0) != 0) {
                expected = -1;
                continue;
            }
            const int cells = markdownCells(line);
            if (expected < 0) {
                expected = cells;
                ++tables;
            }
            QVERIFY2(cells == expected, line.c_str());
        }
        QVERIFY(tables >= 6);
    }

    void findingsRankedAndExplained() {
        Built b = build(samplePath("yolov8n.onnx"));
        const auto& findings = b.session->analysis().findings;
        QVERIFY(!findings.empty());
        // Every finding's rule has a text in the rules file.
        const auto rules = bpu::report::loadGuideRules();
        for (const auto& f : findings)
            QVERIFY2(rules.find(bpu::ruleName(f.rule)), bpu::ruleName(f.rule));
        // The ranked table lists every finding in the session's order (by estimated gain).
        const auto& sec = b.doc.sections[1];
        const auto* table = std::get_if<bpu::report::TableBlock>(&sec.blocks[1]);
        QVERIFY(table);
        QCOMPARE(table->table.rows.size(), findings.size());
        for (size_t i = 0; i < findings.size(); ++i)
            QCOMPARE(table->table.rows[i][1], std::string(bpu::ruleName(findings[i].rule)));
        for (size_t i = 1; i < findings.size(); ++i)
            QVERIFY(findings[i - 1].estimatedGainMs.value_or(0) >= findings[i].estimatedGainMs.value_or(0));
    }

    void hotspotsAndCharts() {
        Built b = build(samplePath("resnet50.onnx"));
        const auto& hot = std::get<bpu::report::TableBlock>(b.doc.sections[2].blocks[1]).table;
        QCOMPARE(hot.rows.size(), size_t(20));
        // Placement, bound, intensity, waste (the issue's columns) and the latency; passes, transitions and
        // the runtime overhead are rows of their own.
        const std::vector<std::string> headers{"#",     "Node or pass", "Op",    "Placement",
                                               "Bound", "Latency (us)", "Share", "Intensity",
                                               "Waste", "MACs"};
        QCOMPARE(hot.headers, headers);
        int charts = 0;
        for (const auto& block : b.doc.sections[4].blocks)
            if (const auto* c = std::get_if<bpu::report::ChartBlock>(&block)) {
                ++charts;
                if (c->kind == bpu::report::ChartKind::Roofline) {
                    QVERIFY(c->roofline.points.size() > 40);
                    QVERIFY(c->roofline.ridgeIntensity > 0);
                    QCOMPARE(c->roofline.roofAt(c->roofline.ridgeIntensity * 10),
                             c->roofline.roofMacsPerSecond);
                } else {
                    QVERIFY(!c->bars.items.empty());
                    for (size_t i = 1; i < c->bars.items.size(); ++i)
                        QVERIFY(c->bars.items[i - 1].value >= c->bars.items[i].value);
                }
            }
        QCOMPARE(charts, 4);
        QVERIFY(b.doc.overview.focus.valid());
        QVERIFY(!b.doc.overview.focusNodes.empty());
        QCOMPARE(b.doc.overview.focusNodes.front(), b.doc.overview.focus);
    }

    /// Every headline number, the ranked findings' gains and the hotspot table come out as `analyze --json`
    /// reports them for the same input.
    void numbersMatchAnalyze_data() {
        QTest::addColumn<QString>("model");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n.onnx");
        QTest::addRow("resnet50") << QStringLiteral("resnet50.onnx");
        QTest::addRow("ssdlite320") << QStringLiteral("ssdlite320_mobilenet_v3_large.onnx");
    }
    void numbersMatchAnalyze() {
        QFETCH(QString, model);
        const std::string path = samplePath(model.toStdString());
        const nlohmann::json a = analyzeJson(path);
        QVERIFY2(a.is_object(), "analyze --json - failed");
        const nlohmann::json& s = a["summary"];
        Built b = build(path);
        const nlohmann::json& f = b.doc.facts;
        QCOMPARE(f["latency_ms"].get<double>(), s["latency_ms"].get<double>());
        QCOMPARE(f["fps"].get<double>(), s["fps"].get<double>());
        for (const char* key : {"bpu_nodes", "cpu_nodes", "folded_nodes", "bpu_segments", "qdq_passes",
                                "fused_groups", "missed_fusions"})
            QVERIFY2(f["summary"][key] == s[key], key);
        QCOMPARE(f["summary"]["padding_waste_ratio"].get<double>(), s["padding_waste_ratio"].get<double>());

        // The summary's text shows the same counts.
        const std::string md = bpu::report::renderMarkdown(b.doc);
        const std::string placement = std::to_string(s["bpu_nodes"].get<int>()) + " BPU, " +
                                      std::to_string(s["cpu_nodes"].get<int>()) + " CPU, " +
                                      std::to_string(s["folded_nodes"].get<int>()) + " folded";
        QVERIFY2(contains(md, placement), placement.c_str());
        QVERIFY(contains(md, bpu::report::fmt::ms(s["latency_ms"].get<double>()) + " ms per inference"));
        QVERIFY(contains(md, bpu::report::fmt::ms(s["bpu_ms"].get<double>()) + " ms"));
        QVERIFY(contains(md, "hrt_model_exec") && contains(md, "hbm_perf"));
        QVERIFY(contains(md, std::to_string(s["qdq_passes"].get<int>()) + " costed passes"));
        QVERIFY(contains(md, bpu::report::fmt::percent(s["padding_waste_ratio"].get<double>()) +
                                 " of padded activation bytes"));

        // The ranked findings: same order, rules and gains.
        const auto& ranked = std::get<bpu::report::TableBlock>(b.doc.sections[1].blocks[1]).table;
        QCOMPARE(ranked.rows.size(), a["findings"].size());
        for (size_t i = 0; i < ranked.rows.size(); ++i) {
            const nlohmann::json& af = a["findings"][i];
            QCOMPARE(ranked.rows[i][1], af["rule"].get<std::string>());
            QCOMPARE(ranked.rows[i][3], bpu::report::fmt::prose(af["title"].get<std::string>()));
            // Gains in one unit for the whole column: microseconds, one decimal (two significant digits
            // below 1 us).
            const std::string gain = af["estimated_gain_ms"].is_number()
                                         ? bpu::report::fmt::gainUs(af["estimated_gain_ms"].get<double>())
                                         : std::string("-");
            QCOMPARE(ranked.rows[i][4], gain);
        }

        // The hotspots: analyze's slowest nodes and cost rows together (ties in any order), each node with
        // its placement, bound and latency, each row (a pass, a transition, the runtime overhead) by its
        // label.
        std::map<std::string, nlohmann::json> byName;
        std::vector<double> latencies;
        for (const auto& n : a["nodes"]) {
            byName[n["name"].get<std::string>()] = n;
            if (n["latency_us"].get<double>() > 0)
                latencies.push_back(n["latency_us"].get<double>());
        }
        std::map<std::string, nlohmann::json> rowsByLabel;
        for (const auto& r : a["cost_rows"]) {
            rowsByLabel[r["label"].get<std::string>()] = r;
            if (r["latency_us"].get<double>() > 0)
                latencies.push_back(r["latency_us"].get<double>());
        }
        std::sort(latencies.rbegin(), latencies.rend());
        const auto& hot = std::get<bpu::report::TableBlock>(b.doc.sections[2].blocks[1]).table;
        QCOMPARE(hot.rows.size(), std::min<size_t>(20, latencies.size()));
        int rowsShown = 0;
        for (size_t i = 0; i < hot.rows.size(); ++i) {
            const auto& row = hot.rows[i];
            QCOMPARE(row[5], bpu::report::fmt::us(latencies[i]));
            if (rowsByLabel.count(row[1])) {
                QCOMPARE(row[5], bpu::report::fmt::us(rowsByLabel[row[1]]["latency_us"].get<double>()));
                ++rowsShown;
                continue;
            }
            QVERIFY2(byName.count(row[1]), row[1].c_str());
            const nlohmann::json& n = byName[row[1]];
            QCOMPARE(row[5], bpu::report::fmt::us(n["latency_us"].get<double>()));
            QCOMPARE(row[3], n["placement"].get<std::string>());
            if (n["bound"].is_string())
                QCOMPARE(row[4], n["bound"].get<std::string>());
        }
        // The runtime's per-inference overhead (hundreds of us) is among the top items of every model here.
        QVERIFY(rowsShown >= 1);
    }

    void withEdits() {
        const nlohmann::json edits = {
            {"edits", {{{"op", "remove_boundary_qdq"}}, {{"op", "set_batch"}, {"batch", 4}}}}};
        const std::string editFile = fixtures::writeBytes("report-edits.json", edits.dump());
        const std::string path = samplePath("yolov8n.onnx");
        const nlohmann::json analyzed =
            analyzeJson(path, {QStringLiteral("--edits"), QString::fromStdString(editFile)});
        QVERIFY(analyzed.is_object());
        const std::string edited = bpu::report::fmt::fps(analyzed["summary"]["fps"].get<double>());
        const std::string base = bpu::report::fmt::fps(analyzed["baseline"]["fps"].get<double>());
        QVERIFY(edited != base);

        Built b = build(path, edits);
        const std::string md = bpu::report::renderMarkdown(b.doc);
        QVERIFY2(contains(md, edited), edited.c_str());
        QVERIFY2(contains(md, base), base.c_str());
        QVERIFY(contains(md, "Baseline (as imported) vs edited"));
        QVERIFY(contains(md, "remove_boundary_qdq"));
        QVERIFY(contains(md, "set_batch"));
        QVERIFY(contains(md, "Changed nodes"));
        const nlohmann::json j = bpu::report::reportJson(b.doc);
        QCOMPARE(j["facts"]["fps_text"].get<std::string>(), edited);
        QCOMPARE(j["facts"]["baseline"]["fps_text"].get<std::string>(), base);
        QCOMPARE(j["facts"]["edits"].size(), size_t(2));
        // Issue 63: at batch 4 one inference serves four images; its time is not compared with batch 1's
        // (it reads as a regression beside a faster per-image figure): the headline compares per image.
        QVERIFY(contains(md, "Board latency per inference, 1 thread (ms)"));
        QVERIFY(contains(md, "batch 1 -> 4: see per image"));
        const std::string perImage = "Per image: " + bpu::report::fmt::ms(b.session->cost().perImageMs) +
                                     " ms, before the 2 what-if edits " +
                                     bpu::report::fmt::ms(b.baseline->cost().perImageMs) + " ms at batch 1";
        QVERIFY2(contains(md, perImage), perImage.c_str());
    }

    void methodAndCalibration() {
        Built b = build(samplePath("mobilenet_v2.onnx"), nullptr, true);
        const std::string md = bpu::report::renderMarkdown(b.doc);
        QVERIFY(contains(md, "Target profile parameters"));
        QVERIFY(contains(md, "peak_int8_tops"));
        QVERIFY(contains(md, "| estimate |"));
        QVERIFY(contains(md, "Predicted vs measured"));
        QVERIFY(contains(md, "resnet152"));
        QVERIFY(contains(md, "RMS log error"));
        const bpu::report::GuideRules rules =
            bpu::report::loadGuideRules(); // kept alive: all() is a reference
        for (const auto& r : rules.all())
            QVERIFY2(contains(md, "**Rule " + r.id), r.id.c_str());
    }

    /// What a reader sees in every sample's report: numbers in fixed notation only, "1 node" never
    /// "1 nodes", no evidence key or profile/calibration identifier in the text before the method section
    /// (which lists the profile's parameters by their keys on purpose).
    void everySampleReadsClean() {
        // A number token in exponent notation: "5.266e+05", "1e-05", "3E9" (not inside a name like "b0e1x").
        const std::regex scientific(
            R"((^|[^A-Za-z0-9_./#])[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]+($|[^A-Za-z0-9_]))");
        const std::regex onePlural(
            R"((^|[^0-9.,])1 (nodes|layers|edits|segments|groups|findings|fusions|passes|what-if edits)\b)");
        for (const std::string& file : samples::sampleFiles()) {
            const std::string path = samplePath(file);
            const QByteArray where = QByteArray::fromStdString(path);
            Built b = build(path);
            const std::string md = bpu::report::renderMarkdown(b.doc);
            const std::string html = bpu::report::renderHtml(b.doc);
            for (const std::string* text : {&md, &html}) {
                std::smatch m;
                QVERIFY2(!std::regex_search(*text, m, scientific),
                         (where + ": " + m.str(0).c_str()).constData());
                QVERIFY2(!std::regex_search(*text, m, onePlural),
                         (where + ": " + m.str(0).c_str()).constData());
            }
            // Up to the method section: no evidence key (snake_case) and no profile or calibration key.
            const std::string body = md.substr(0, md.find("## 8. Method"));
            std::set<std::string> keys{"qdq_elements_per_us", "spills_to_ddr", "bpu_only"};
            QVERIFY(!b.session->analysis().findings.empty());
            for (const auto& f : b.session->analysis().findings)
                for (auto it = f.evidence.begin(); f.evidence.is_object() && it != f.evidence.end(); ++it)
                    if (it.key().find('_') != std::string::npos)
                        keys.insert(it.key());
            std::istringstream lines(body);
            std::string line;
            while (std::getline(lines, line)) {
                // The what-if edits are spelled in the --edits language on purpose (the user can run them).
                if (contains(line, "**Fix:**") || contains(line, "**What-if (idealized):**") ||
                    contains(line, "**Alternative fix:**") || contains(line, "Warning:"))
                    continue;
                for (const std::string& key : keys)
                    QVERIFY2(
                        !std::regex_search(line, std::regex("(^|[^A-Za-z0-9_])" + key + "($|[^A-Za-z0-9_])")),
                        (where + ": " + QByteArray::fromStdString(key) + " in: " + line.c_str()).constData());
            }
        }
    }

    /// A cut evidence list: yolov8n's G3 finding keeps 50 of its 57 SiLU occurrences (occurrences_total 57).
    /// The report shows six, each bracketed (an occurrence's own node list also joins with "; "), and counts
    /// the other 51 in the list itself, so no separate "Occurrences total" line repeats the count.
    void cutEvidenceListCountsOnce() {
        Built b = build(samplePath("yolov8n.onnx"));
        const bpu::Finding* g3 = nullptr;
        for (const auto& f : b.session->analysis().findings)
            if (f.rule == bpu::RuleId::G3)
                g3 = &f;
        QVERIFY(g3);
        QCOMPARE(g3->evidence.value("occurrences_total", 0), 57);
        QCOMPARE(g3->evidence["occurrences"].size(), size_t(50));
        const std::string md = bpu::report::renderMarkdown(b.doc);
        std::istringstream lines(md);
        std::string line, occurrences;
        while (std::getline(lines, line)) {
            QVERIFY2(!contains(line, "Occurrences total"), line.c_str());
            if (contains(line, "**Occurrences:**") && contains(line, "Sigmoid"))
                occurrences = line;
        }
        QVERIFY(!occurrences.empty());
        QVERIFY2(contains(occurrences, "; ... 51 more"), occurrences.c_str());
        QVERIFY2(contains(occurrences, "**Occurrences:** ("), occurrences.c_str());
        QCOMPARE(std::count(occurrences.begin(), occurrences.end(), '('), std::ptrdiff_t(6));
    }

    /// The first page: the three latency figures by name, the deployment, the top findings; the model's and
    /// profile's particulars and the method only in the last section.
    void firstPage() {
        Built b = build(samplePath("yolov8n.onnx"));
        QVERIFY(b.doc.kpis.size() >= 3);
        QCOMPARE(b.doc.kpis[0].label, std::string("Board, 1 thread"));
        QCOMPARE(b.doc.kpis[1].label, std::string("2 threads"));
        QCOMPARE(b.doc.kpis[2].label, std::string("BPU (static)"));
        const bpu::CostEstimate& e = b.session->cost();
        QCOMPARE(b.doc.kpis[0].value, bpu::report::fmt::ms(e.latencyMs) + " ms");
        QCOMPARE(b.doc.kpis[1].value, bpu::report::fmt::fps(e.fpsByThreads[1]) + " FPS");
        QCOMPARE(b.doc.kpis[2].value, bpu::report::fmt::ms(e.bpuMs) + " ms");

        const auto& summary = b.doc.sections.front();
        QCOMPARE(summary.id, std::string("summary"));
        bool deployment = false, top = false;
        for (const auto& block : summary.blocks) {
            QVERIFY2(!std::holds_alternative<bpu::report::Heading>(block), "no subsection on the first page");
            QVERIFY2(!std::holds_alternative<bpu::report::RuleText>(block), "no rule text on the first page");
            if (const auto* kv = std::get_if<bpu::report::KeyValues>(&block))
                for (const auto& item : kv->items) {
                    deployment |= item.key == "Deployment";
                    QVERIFY2(item.key != "Profile file" && item.key != "Producer", item.key.c_str());
                }
            if (const auto* t = std::get_if<bpu::report::TableBlock>(&block))
                top |= t->caption.rfind("Top findings", 0) == 0;
        }
        QVERIFY(deployment);
        QVERIFY(top);
        const auto& method = b.doc.sections.back();
        QCOMPARE(method.id, std::string("method"));
        const auto* first = std::get_if<bpu::report::Heading>(&method.blocks.front());
        QVERIFY(first && first->text == "Model and target profile");

        // The same cards in HTML and Markdown.
        const std::string html = bpu::report::renderHtml(b.doc), md = bpu::report::renderMarkdown(b.doc);
        for (const auto& k : b.doc.kpis) {
            QVERIFY2(
                contains(html, "<div class=\"label\">" + k.label + "</div><div class=\"value\">" + k.value),
                k.label.c_str());
            QVERIFY2(contains(md, "**" + k.value + "**"), k.value.c_str());
        }
        QVERIFY(html.find("class=\"kpis\"") < html.find("<section id=\"summary\""));
    }

    /// The BPU layer table: rows slowest first, the total row over every layer equals the BPU (static)
    /// figure (the layers add up to the BPU's time: docs/report.md), the load/store times are the bytes at
    /// the effective DDR bandwidth, and the DDR traffic is every BPU node's DDR bytes, summed independently.
    void layersTable_data() {
        QTest::addColumn<QString>("model");
        QTest::addRow("yolov8n") << QStringLiteral("yolov8n.onnx");
        QTest::addRow("resnet50") << QStringLiteral("resnet50.onnx");
        QTest::addRow("ssdlite") << QStringLiteral("ssdlite320_mobilenet_v3_large.onnx");
    }
    void layersTable() {
        QFETCH(QString, model);
        Built b = build(samplePath(model.toStdString()));
        const bpu::Session& s = *b.session;
        const auto& sec = section(b.doc, "layers");
        const bpu::report::Table* table = nullptr;
        const bpu::report::KeyValues* ddr = nullptr;
        for (const auto& block : sec.blocks) {
            if (const auto* t = std::get_if<bpu::report::TableBlock>(&block))
                table = &t->table;
            if (const auto* kv = std::get_if<bpu::report::KeyValues>(&block))
                ddr = kv;
        }
        QVERIFY(table && ddr);
        const std::vector<std::string> headers{
            "#", "Layer", "Ops", "Time (us)", "Compute (us)", "Load (us)", "Store (us)", "DDR (KiB)"};
        QCOMPARE(table->headers, headers);
        const auto layers = bpu::bpuLayers(s.graph(), s.analysis(), s.cost(), s.target());
        QCOMPARE(table->rows.size(), std::min<size_t>(20, layers.size()) + 1);
        const auto& total = table->rows.back();
        QCOMPARE(total[1], "All " + std::to_string(layers.size()) + " layers");
        QCOMPARE(total[3], bpu::report::fmt::us(s.cost().bpuUs));
        double sum = 0;
        for (const auto& l : layers)
            sum += l.latencyUs;
        QVERIFY2(std::fabs(sum - s.cost().bpuUs) <= 1e-6 * s.cost().bpuUs, "layers add up to the BPU time");
        for (size_t i = 0; i + 1 < table->rows.size(); ++i) {
            const auto& row = table->rows[i];
            if (i > 0)
                QVERIFY(std::stod(row[3]) <= std::stod(table->rows[i - 1][3]));
            const auto it = std::find_if(layers.begin(), layers.end(), [&](const bpu::BpuLayer& l) {
                return s.graph().node(l.head).name == row[1];
            });
            QVERIFY2(it != layers.end(), row[1].c_str());
            QCOMPARE(row[3], bpu::report::fmt::us(it->latencyUs));
            QCOMPARE(row[5], bpu::report::fmt::us(bpu::ddrUs(it->loadBytes, s.target())));
            QCOMPARE(row[6], bpu::report::fmt::us(bpu::ddrUs(it->storeBytes, s.target())));
            QVERIFY2(row[2].find(s.graph().node(it->head).opType) == 0, row[2].c_str());
        }
        // DDR traffic per frame: every priced BPU node's DDR bytes, read straight from the analysis.
        int64_t bytes = 0;
        for (const auto& n : s.graph().nodes) {
            const auto& a = s.analysis().nodes[n.id.value];
            if (a.placement == bpu::Placement::BPU && !a.assumedFree)
                bytes += a.ddrBytes;
        }
        QVERIFY(ddr->title.rfind("DDR traffic", 0) == 0);
        QCOMPARE(ddr->items.back().key, std::string("Total"));
        QVERIFY2(ddr->items.back().value.rfind(bpu::report::fmt::bytes(bytes), 0) == 0,
                 ddr->items.back().value.c_str());
        QCOMPARE(total[7], bpu::report::fmt::kib(bytes));
    }

    /// A finding's detail lists its nodes in a table (not a truncated line), counted with the right plural.
    /// A grouped finding's what-if names every node of the group (yolov8n's SiLU: 114 nodes); the report
    /// shows its kind, the count and the first names, the node table lists them.
    void longFixesAreShortened() {
        Built b = build(samplePath("yolov8n.onnx"));
        const auto& sec = section(b.doc, "findings");
        int fixes = 0;
        for (const auto& block : sec.blocks) {
            const auto* kv = std::get_if<bpu::report::KeyValues>(&block);
            if (!kv)
                continue;
            for (const auto& item : kv->items) {
                if (item.key != "What-if (idealized)" && item.key != "Fix")
                    continue;
                ++fixes;
                QVERIFY2(item.value.size() < 400, item.value.c_str());
            }
        }
        QVERIFY(fixes > 0);
    }

    void findingNodeTables() {
        // ssdlite: nine findings, several of them groups over many layers (yolov8n has two since alike
        // findings group into one).
        Built b = build(samplePath("ssdlite320_mobilenet_v3_large.onnx"));
        const auto& sec = section(b.doc, "findings");
        int tables = 0;
        for (const auto& block : sec.blocks) {
            const auto* t = std::get_if<bpu::report::TableBlock>(&block);
            if (!t || t->caption.rfind("Nodes of finding", 0) != 0)
                continue;
            ++tables;
            // A long list (a grouped finding covers every layer of a stage) ends in one "... N more nodes"
            // row pointing at the JSON; the caption counts them all.
            size_t n = t->table.rows.size();
            int more = 0;
            if (n > 0 && t->table.rows.back()[0].rfind("... ", 0) == 0) {
                std::string row = t->table.rows.back()[0]; // "... 1,748 more nodes": the count has separators
                row.erase(std::remove(row.begin(), row.end(), ','), row.end());
                QVERIFY(std::sscanf(row.c_str(), "... %d more node", &more) == 1);
                QVERIFY(more > 0);
                n = n - 1 + size_t(more);
            }
            QCOMPARE(t->caption, std::string("Nodes of finding: ") +
                                     (n == 1 ? "1 node" : bpu::report::fmt::count(int64_t(n)) + " nodes"));
            for (size_t i = 0; i + (more > 0 ? 1 : 0) < t->table.rows.size(); ++i)
                QVERIFY2(b.session->graph().findNode(t->table.rows[i][0]).valid(),
                         t->table.rows[i][0].c_str());
        }
        QVERIFY(tables >= 3);
    }

    /// The whole-graph drawings are left out of a graph too large to read; a small one keeps them.
    void graphOverviewOnlyWhenLegible() {
        auto figures = [](const ReportDocument& doc) {
            int whole = 0, hotspot = 0;
            for (const auto& block : section(doc, "graph").blocks)
                if (const auto* f = std::get_if<bpu::report::FigureBlock>(&block))
                    (f->kind == bpu::report::FigureKind::GraphHotspot ? hotspot : whole)++;
            return std::pair{whole, hotspot};
        };
        QCOMPARE(figures(build(samplePath("yolov8n.onnx")).doc), std::pair(2, 1));
        Built big = build(samplePath("ssdlite320_mobilenet_v3_large.onnx"));
        QVERIFY(big.doc.overview.graph->nodes.size() > 600);
        QCOMPARE(figures(big.doc), std::pair(0, 1));
        QVERIFY(contains(bpu::report::renderMarkdown(big.doc), "too large to draw legibly"));
    }

    void htmlSelfContained() {
        Built b = build(samplePath("yolov8n.onnx"));
        const std::string html = bpu::report::renderHtml(b.doc);
        QVERIFY(contains(html, "<!DOCTYPE html>"));
        QVERIFY(contains(html, "<svg"));
        QVERIFY(contains(html, "yolov8n"));
        for (const char* external : {"<script", "<link", "src=", "url(", "https://"})
            QVERIFY2(!contains(html, external), external);
        // Only the SVG namespace URI may appear.
        size_t at = 0;
        while ((at = html.find("http://", at)) != std::string::npos) {
            QVERIFY(html.compare(at, 26, "http://www.w3.org/2000/svg") == 0);
            ++at;
        }
    }

    void cliTextFormats() {
        const std::string out = fixtures::tempDir() + "/r.md";
        QProcess p;
        p.start(QString::fromStdString(bpu::test::cliPath()),
                {QStringLiteral("report"), QString::fromStdString(samplePath("resnet50.onnx")),
                 QStringLiteral("-o"), QString::fromStdString(out)});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        std::ifstream in(out);
        const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY(contains(md, "# BpuScope optimization report: resnet50"));

        QProcess bad;
        bad.start(QString::fromStdString(bpu::test::cliPath()),
                  {QStringLiteral("report"), QStringLiteral("/nonexistent/x.onnx"), QStringLiteral("-o"),
                   QString::fromStdString(out)});
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 3);
        QVERIFY(bad.readAllStandardError().startsWith("bpuscope: error: /nonexistent/x.onnx: "));

        QProcess usage;
        usage.start(QString::fromStdString(bpu::test::cliPath()),
                    {QStringLiteral("report"), QString::fromStdString(samplePath("resnet50.onnx"))});
        QVERIFY(usage.waitForFinished(60000));
        QCOMPARE(usage.exitCode(), 2);
    }
};

QTEST_GUILESS_MAIN(TestReportModel)
#include "tst_report_model.moc"
