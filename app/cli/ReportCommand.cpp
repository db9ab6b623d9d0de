// SPDX-License-Identifier: MIT
// `bpuscope-cli report`: the optimization report (issue 6) as PDF, Markdown, HTML or JSON. The document is
// built once by core/report; PDF output needs Qt's GUI classes, so only that path creates a QApplication
// (offscreen when there is no display).
#include "Commands.h"
#include "DocumentOutput.h"
#include "ModelSetup.h"
#include "ResultNotice.h"
#include "core/analysis/ResultDiagnostics.h"
#include "core/deploy/DeployImport.h"

#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/model/ExternalDataFiles.h"
#include "core/model/ModelImporter.h"
#include "core/report/ReportBuilder.h"
#include "core/target/TargetProfile.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>

namespace bpu::cli {

namespace {

/// `--progress`: one line per stage on stderr with the time since the start, so a slow stage shows.
class StageLog {
public:
    explicit StageLog(bool on)
        : on_(on)
        , start_(std::chrono::steady_clock::now()) {}
    void operator()(double fraction, std::string_view stage) {
        if (!on_ || stage == last_)
            return;
        last_ = std::string(stage);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        std::fprintf(stderr, "[%7.3f s] %3.0f%% %s\n", s, fraction * 100, last_.c_str());
    }
    /// A Progress that reports into this log, mapping [0, 1] to [from, to] of the whole run.
    Progress range(double from, double to) {
        Progress p;
        if (on_)
            p.report = [this, from, to](double f, std::string_view stage) {
                (*this)(from + f * (to - from), stage);
            };
        return p;
    }

private:
    bool on_;
    std::chrono::steady_clock::time_point start_;
    std::string last_;
};

} // namespace

int runReport(const CliArgs& args, int argc, char** argv) {
    if (args.positional.size() != 1)
        throw UsageError("report takes exactly one MODEL");
    const auto output = args.get("output");
    if (!output || output->empty())
        throw UsageError(
            "report needs -o FILE (.pdf, .md, .html or .json; '-' writes md/html/json to stdout)");
    const std::string format = documentFormat(args, *output, {"pdf", "md", "html", "json"});
    if (format == "pdf" && *output == "-")
        throw UsageError("a PDF cannot go to stdout; give -o FILE.pdf");
#ifndef BPUSCOPE_CLI_PDF
    if (format == "pdf")
        throw UsageError("this bpuscope-cli was built without the GUI libraries: PDF output is unavailable "
                         "(use --format md, html or json)");
#endif

    checkWritable(*output);
    StageLog log(args.has("progress"));
    log(0.0, "import");
    const ModelSetup setup = loadModelSetup(args);
    EditList edits;
    if (auto file = args.get("edits"))
        edits = loadEditsOption(*file);
    Graph graph = ModelImporter::load(args.positional[0], importOptions(args, setup));
    checkDeployNames(setup.deploy, graph);
    args.refuseOutputsOver(externalDataFiles(graph), "an external-data file of the model");
    log(0.1, "analysis and estimate");
    AnalysisOptions options;
    options.deploy = setup.deploy;
    Session session(std::move(graph), setup.target, options);
    session.setObjective(setup.objective);
    std::optional<Session> baseline;
    report::ReportInput input;
    if (!edits.empty())
        baseline.emplace(session);
    try {
        applyEditList(session, edits); // all or nothing, one re-estimate
    } catch (const EditError& e) {
        throw std::runtime_error(*args.get("edits") + ": " + e.what());
    }
    input.edits = edits;
    log(0.2, "finding gains");
    session.estimateFindingGains();
    printDiagnostics(resultDiagnostics(session.graph(), &session.analysis(), &session.options().deploy));
    input.session = &session;
    input.baseline = baseline ? &*baseline : nullptr;
    const bool pdf = format == "pdf";
    const report::ReportDocument doc = report::buildReport(input, log.range(0.3, pdf ? 0.5 : 0.95));

    writeDocument(doc, format, *output, argc, argv, log.range(0.5, 1.0));
    log(1.0, "written");
    if (!writesToStdout(*output))
        std::cout << "wrote " << *output << " (" << format << ")\n";
    return kOk;
}

} // namespace bpu::cli
