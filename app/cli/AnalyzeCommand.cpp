// SPDX-License-Identifier: MIT
#include "BuryAtExit.h"
#include "Commands.h"
#include "FailOn.h"
#include "ModelSetup.h"
#include "ResultNotice.h"
#include "core/deploy/DeployImport.h"

#include "core/advice/FindingText.h"
#include "core/advice/OptimizationPlan.h"
#include "core/analysis/Analyzer.h"
#include "core/analysis/ResultDiagnostics.h"
#include "core/cost/CostModel.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/io/AnalysisJson.h"
#include "core/io/PlanJson.h"
#include "core/io/VendorTables.h"
#include "core/model/ExternalDataFiles.h"
#include "core/model/ModelImporter.h"
#include "core/report/PlanText.h"
#include "core/target/TargetProfile.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace bpu::cli {

namespace {

std::string planText(const OptimizationPlan& plan) {
    constexpr size_t kWidth = 100; // wrap the summary sentence at this column, under the 12-column labels
    const std::string indent(12, ' ');
    std::ostringstream os;
    os << "plan:       ";
    size_t column = indent.size();
    std::istringstream words(bpu::report::planSummary(plan));
    bool first = true;
    for (std::string w; words >> w; first = false) {
        if (!first && column + 1 + w.size() > kWidth) {
            os << "\n" << indent;
            column = indent.size();
        } else if (!first) {
            os << ' ';
            ++column;
        }
        os << w;
        column += w.size();
    }
    os << "\n";
    char buf[512];
    if (!plan.steps.empty()) {
        std::snprintf(buf, sizeof buf, "            start   %.3f ms = %.1f FPS\n", plan.latencyMsBefore,
                      plan.fpsBefore);
        os << buf;
    }
    const size_t split = plan.firstRetrainingStep();
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        const PlanStep& st = plan.steps[i];
        if (i == 0 || i == split)
            os << "            " << bpu::report::planPartTitle(plan, i == split) << "\n";
        std::snprintf(buf, sizeof buf, "            %2zu. %.3f ms = %.1f FPS  (-%.3f ms) [%s] ", i + 1,
                      st.latencyMsAfter, st.fpsAfter, st.gainMs, ruleName(st.rule));
        os << buf << st.title << (st.unproven ? " (unproven)" : "") << "\n";
    }
    for (const std::string& line : bpu::report::planSkippedLines(plan))
        os << "            left out: " << line << "\n";
    return os.str();
}

std::string summaryText(const Session& session) {
    const Graph& g = session.graph();
    const TargetProfile& t = session.target();
    const AnalysisResult& r = session.analysis();
    const CostEstimate& e = session.cost();
    const auto& s = r.summary;
    std::ostringstream os;
    char buf[512];
    os << "model:      " << g.path << " (" << g.nodes.size() << " nodes)\n";
    os << "target:     " << t.displayName << " [" << t.name << " " << t.version << "]\n";
    os << "deployment: " << describeDeploy(session.options().deploy, g) << "\n";
    std::snprintf(buf, sizeof buf,
                  "nodes:      %d BPU, %d CPU, %d folded; %d BPU segment(s)\n"
                  "Q/DQ:       %d explicit nodes, %d passes left on the CPU over %lld elements\n"
                  "padding:    %.1f%% of padded activation bytes wasted (%lld bytes)\n"
                  "fusion:     %d fused groups, %d missed\n",
                  s.bpuNodes, s.cpuNodes, s.foldedNodes, s.bpuSegments, s.qdqNodes, s.qdqPasses,
                  static_cast<long long>(s.qdqElements), s.paddingWasteRatio * 100,
                  static_cast<long long>(s.paddingWasteBytes), s.fusedGroups, s.missedFusions);
    os << buf;
    const char* per = e.batch > 1 ? " per inference of the batch" : "";
    std::snprintf(buf, sizeof buf,
                  "latency:    board, 1 thread  %.3f ms%s = %.1f FPS  (as hrt_model_exec perf measures it)\n"
                  "            2 threads FPS    %.1f\n"
                  "            BPU (static)     %.3f ms  (the BPU alone, as hbm_perf reports it)\n"
                  "            where it goes:   BPU %.0f us, CPU ops %.0f us, Q/DQ passes %.0f us, "
                  "transitions %.0f us, runtime overhead %.0f us\n",
                  e.latencyMs, per, e.fps, e.fpsByThreads[1], e.bpuMs, e.bpuUs, e.cpuUs, e.qdqUs,
                  e.transitionUs, e.runtimeUs);
    os << buf;
    os << "findings (" << r.findings.size() << (r.foldedFindings.empty() ? "" : " listed") << "):\n";
    for (const auto& f : r.findings) {
        os << "  [" << ruleName(f.rule) << "] " << severityText(f) << ": " << f.title << "\n";
        os << "        " << findingOutcomeText(f) << "\n";
        // A grouped finding's occurrences, the largest first: the first few, the count of the rest.
        constexpr size_t kShown = 3;
        for (size_t i = 0; i < f.occurrences.size() && i < kShown; ++i)
            os << "        - " << findingPartText(f.occurrences[i]) << "\n";
        if (f.occurrences.size() > kShown)
            os << "        - ... " << f.occurrences.size() - kShown << " more (analyze --json lists each)\n";
        for (const auto& p : f.also)
            os << "        also: " << findingPartText(p) << "\n";
    }
    if (const std::string folded = foldedSummaryText(r.foldedFindings); !folded.empty())
        os << "  " << folded << "\n";
    return os.str();
}

} // namespace

int runAnalyze(const CliArgs& args) {
    if (args.positional.size() != 1)
        throw UsageError("analyze takes exactly one MODEL");
    std::vector<FailCondition> failOn; // checked before the model loads: a typo fails fast
    for (const auto& expr : args.all("fail-on"))
        failOn.push_back(parseFailCondition(expr));
    const ModelSetup setup = loadModelSetup(args);
    EditList edits;
    if (auto file = args.get("edits"))
        edits = loadEditsOption(*file);
    AnalysisOptions options;
    options.deploy = setup.deploy;
    Graph graph = ModelImporter::load(args.positional[0], importOptions(args, setup));
    checkDeployNames(setup.deploy, graph);
    auto owned = std::make_unique<Session>(std::move(graph), setup.target, options);
    Session& session = *owned;
    session.setObjective(setup.objective);
    args.refuseOutputsOver(externalDataFiles(session.graph()), "an external-data file of the model");
    const CostEstimate baseline = session.cost();
    try {
        applyEditList(session, edits); // all or nothing, one re-estimate
    } catch (const EditError& e) {
        throw std::runtime_error(*args.get("edits") + ": " + e.what());
    }
    session.estimateFindingGains();
    const OptimizationPlan plan = buildOptimizationPlan(session);
    session.findings(); // as the summary below reads them, whether or not the JSON is written
    const Completeness complete = completeness(session.graph());
    const std::vector<Diagnostic> diagnostics =
        resultDiagnostics(session.graph(), &session.analysis(), &session.options().deploy);
    printDiagnostics(diagnostics);
    if (auto json = args.get("json")) {
        nlohmann::json summary = planSummaryJson(plan);
        summary["partial"] = !complete.complete(); // the plan's steps rest on the same guessed shapes
        const nlohmann::json planMembers = {{"plan", planJson(plan)}, {"plan_summary", std::move(summary)}};
        writeOutput(*json, [&](const TextSink& append) {
            writeSessionJson(append, session, baseline, edits, planMembers);
        });
    }
    if (auto csv = args.get("csv"))
        writeOutput(*csv, analysisCsv(session.graph(), session.analysis(), &session.cost()));
    if (auto file = args.get("node-info"))
        writeOutput(*file, nodeInfoCsv(session.graph(), session.analysis()));
    if (auto file = args.get("perf-json"))
        writeOutput(*file,
                    perfJson(session.graph(), *setup.target, session.analysis(), session.cost()).dump(2) +
                        "\n");
    bool toStdout = false;
    for (const char* key : {"json", "csv", "node-info", "perf-json"})
        toStdout |= args.get(key) && writesToStdout(*args.get(key));
    if (!toStdout) {
        std::cout << resultHead(complete, diagnostics) << summaryText(session) << planText(plan);
        if (!edits.empty())
            std::printf("baseline:   board %.3f ms = %.1f FPS, BPU (static) %.3f ms before %zu edit(s)\n",
                        baseline.latencyMs, baseline.fps, baseline.bpuMs, edits.size());
    }
    std::vector<std::string> reasons;
    // A gate that passes on guessed shapes would pass for the wrong reason: a partial result fails it
    // unless the caller says a partial result is what it means to judge.
    if (!failOn.empty() && !complete.complete() && !args.has("allow-partial"))
        reasons.push_back("the result is PARTIAL (" + complete.summary() +
                          "): give the input shapes, or pass --allow-partial to judge it anyway");
    for (const auto& c : failOn)
        if (auto why = failReason(c, session))
            reasons.push_back(*why);
    for (const auto& why : reasons)
        std::cerr << "bpuscope: --fail-on: " << why << "\n";
    buryAtExit(std::move(owned));
    return reasons.empty() ? kOk : 1;
}

} // namespace bpu::cli
