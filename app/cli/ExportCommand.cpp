// SPDX-License-Identifier: MIT
// `bpuscope-cli export` (issue 49): the model with a what-if edit list or the optimization plan's first
// steps applied, written as ONNX for hb_compile. An edit with no form in a model file is refused by name;
// a change of the deployment or compile settings is said to stay out of the file.
#include "Commands.h"
#include "DocumentOutput.h"
#include "ModelSetup.h"
#include "ResultNotice.h"
#include "core/deploy/DeployImport.h"

#include "core/advice/OptimizationPlan.h"
#include "core/analysis/ResultDiagnostics.h"
#include "core/edit/Edit.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/io/EditedModelExport.h"
#include "core/model/ExternalDataFiles.h"
#include "core/model/ModelImporter.h"
#include "core/util/PrintableText.h"

#include <cstdio>
#include <iostream>
#include <set>

namespace bpu::cli {

namespace {

/// The edit list to export: --edits FILE, or the plan's first N steps (--plan N).
EditList exportEdits(const CliArgs& args, Session& s) {
    const auto file = args.get("edits");
    const auto plan = args.get("plan");
    if (file && plan)
        throw UsageError("export takes --edits FILE or --plan N, not both");
    if (file)
        return loadEditsOption(*file);
    if (!plan)
        return {};
    long long n = 0;
    try {
        size_t used = 0;
        n = std::stoll(*plan, &used);
        if (used != plan->size())
            n = -1;
    } catch (const std::exception&) {
        n = -1;
    }
    if (n < 1)
        throw UsageError("--plan takes the number of plan steps to apply (1 or more), got '" + *plan + "'");
    s.estimateFindingGains();
    // The findings left out for resting on guessed shapes are no step either: say so before any refusal.
    for (const Diagnostic& d : resultDiagnostics(s.graph(), &s.analysis(), nullptr))
        if (d.code == DiagCode::FindingsOnGuesses)
            printDiagnostics({d});
    const OptimizationPlan p = buildOptimizationPlan(s, size_t(n));
    if (p.steps.empty())
        throw std::runtime_error(args.positional[0] +
                                 ": the optimization plan has no step (no concrete fix lowers the latency)");
    // A step whose gain rests on guessed shapes is refused by name, never exported as if it were measured.
    for (const PlanSkip& skip : p.skipped)
        if (skip.kind == PlanSkipKind::RestsOnGuess)
            std::cerr << "bpuscope: note: plan step refused: [" << ruleName(skip.rule) << "] "
                      << printable(skip.title) << ": " << printable(skip.reason) << "\n";
    if (p.steps.size() < size_t(n))
        std::cerr << "bpuscope: note: the plan has " << p.steps.size() << " step"
                  << (p.steps.size() > 1 ? "s" : "") << "; exporting all of them\n";
    EditList edits;
    for (const auto& st : p.steps) {
        std::cout << "plan step: [" << ruleName(st.rule) << "] " << printable(st.title) << "\n";
        edits.insert(edits.end(), st.edits.begin(), st.edits.end());
    }
    return edits;
}

} // namespace

int runExport(const CliArgs& args) {
    if (args.positional.size() != 1)
        throw UsageError("export takes exactly one MODEL");
    const auto output = args.get("output");
    if (!output || output->empty() || *output == "-")
        throw UsageError("export needs -o FILE.onnx (a model is not written to stdout)");
    checkWritable(*output);
    const auto yaml = args.get("yaml");
    if (yaml) {
        if (yaml->empty() || writesToStdout(*yaml))
            throw UsageError("--yaml needs a file (the config names the exported model beside it)");
        checkWritable(*yaml);
    }
    const ModelSetup setup = loadModelSetup(args);
    Graph graph = ModelImporter::load(args.positional[0], importOptions(args, setup));
    checkDeployNames(setup.deploy, graph);
    args.refuseOutputsOver(externalDataFiles(graph), "an external-data file of the model");
    AnalysisOptions options;
    options.deploy = setup.deploy;
    Session session(std::move(graph), setup.target, options);
    session.setObjective(setup.objective);
    // Before any output: the estimate this export prints, and any plan it applies, rest on guessed shapes.
    const Completeness complete = completeness(session.graph());
    if (!complete.complete())
        std::cerr << "bpuscope: warning: "
                  << printable(session.graph().path + ": PARTIAL: " + complete.summary())
                  << ": the estimate below and any plan step rest on guessed shapes\n";
    const EditList edits = exportEdits(args, session);
    const std::string source = args.get("edits") ? *args.get("edits") : std::string("the plan");
    // An idealized edit has no form in any model file: refused by name, never dropped.
    if (const auto idealized = idealizedEdits(edits); !idealized.empty())
        throw std::runtime_error(source + ": " + idealized.front() +
                                 " is an idealized what-if with no form in a model file; export a list "
                                 "of concrete changes");
    const AnalysisOptions before = session.options();
    try {
        applyEditList(session, edits);
    } catch (const EditError& e) {
        throw std::runtime_error(source + ": " + e.what());
    }
    // What changed in the session's options (no idealized edit is left to change them) is the deployment or
    // the compile settings: the compile config's, not the model file's.
    if (!(session.options() == before) && !yaml)
        std::cerr
            << "bpuscope: warning: the edits change the deployment or compile settings, which an ONNX file "
               "does not carry; give hb_compile the same: "
            << printable(describeDeploy(session.options().deploy, session.graph()))
            << (session.options().placementOverrides.empty()
                    ? std::string()
                    : "; " + std::to_string(session.options().placementOverrides.size()) +
                          " node placement(s) set (node_info 'ON')")
            << "\n";
    const EditedModelExport exported = exportEditedModel(session, *output, yaml.value_or(""));
    const OnnxExportReport& rep = exported.onnx;
    for (const auto& w : rep.warnings)
        std::cerr << "bpuscope: warning: " << printable(w) << "\n";
    if (const std::string text = reinitialisedText(rep.reinitialised); !text.empty())
        std::cerr << "bpuscope: warning: " << printable(text) << "\n";
    for (const auto& line : exportCostLines(edits))
        std::cerr << "bpuscope: warning: what the exported changes cost: " << printable(line) << "\n";
    for (const auto& f : rep.copiedFiles)
        std::cout << "copied weights: " << printable(f) << "\n";
    char buf[160];
    std::snprintf(buf, sizeof buf, " (%zu nodes, %zu edit%s; estimated %.3f ms per image, %.1f FPS)",
                  session.graph().nodes.size(), edits.size(), edits.size() == 1 ? "" : "s",
                  session.cost().perImageMs, session.cost().fps);
    std::cout << "wrote " << printable(*output) << buf
              << (completeness(session.graph()).complete() ? "" : " - PARTIAL") << "\n";
    if (exported.yamlWritten) {
        for (const auto& n : exported.notes)
            std::cerr << "bpuscope: note: " << printable(n) << "\n";
        const DeploySettings& d = exported.compiled;
        std::set<std::string> named; // node_info entries: a node with a placement and a precision is one
        for (const auto& kv : d.nodePlacement)
            named.insert(kv.first);
        for (const auto& kv : d.nodePrecision)
            named.insert(kv.first);
        std::cout << "wrote " << printable(*yaml)
                  << " (hb_compile config: " << printable(describeDeploy(d, session.graph()))
                  << (named.empty() ? std::string()
                                    : "; node_info for " + std::to_string(named.size()) + " node(s)")
                  << ")\n";
    }
    return kOk;
}

} // namespace bpu::cli
