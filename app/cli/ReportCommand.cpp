// SPDX-License-Identifier: MIT
// `bpuscope-cli report`: the optimization report (issue 6) as PDF, Markdown, HTML or JSON. The document is
// built once by core/report; PDF output needs Qt's GUI classes, so only that path creates a QApplication
// (offscreen when there is no display).
#include "Commands.h"

#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/report/ReportBuilder.h"
#include "core/report/ReportRenderers.h"
#include "core/target/TargetProfile.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string_view>

#include <unistd.h>

#ifdef BPUSCOPE_CLI_PDF
#include "ui/report/PdfReportWriter.h"

#include <QApplication>
#include <QEventLoop>
#include <QFutureWatcher>
#endif

namespace bpu::cli {

namespace {

std::string formatOf(const CliArgs& args, const std::string& output) {
    if (auto f = args.get("format")) {
        if (*f != "pdf" && *f != "md" && *f != "html" && *f != "json")
            throw UsageError("--format must be pdf, md, html or json, got '" + *f + "'");
        return *f;
    }
    std::string ext = std::filesystem::path(output).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == ".md" || ext == ".markdown")
        return "md";
    if (ext == ".html" || ext == ".htm")
        return "html";
    if (ext == ".json")
        return "json";
    return "pdf";
}

/// Fails before any work when `output` cannot be written: its folder is missing or not writable, or it names
/// a folder. (Writing can still fail later, e.g. a full disk; that is reported then.)
void checkWritable(const std::string& output) {
    if (output == "-")
        return;
    namespace fs = std::filesystem;
    const fs::path path(output);
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw std::runtime_error(output + ": cannot write: is a directory");
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        throw std::runtime_error(output + ": cannot write: no folder " + dir.string());
    if (::access(dir.c_str(), W_OK) != 0)
        throw std::runtime_error(output + ": cannot write: folder " + dir.string() + " is not writable");
}

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

#ifdef BPUSCOPE_CLI_PDF
QtMessageHandler previousHandler = nullptr;

/// Drops Qt's note about XDG_RUNTIME_DIR (unset in containers and CI; irrelevant to writing a file).
void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    if (previousHandler)
        previousHandler(type, context, message);
    else
        std::fprintf(stderr, "%s\n", qPrintable(qFormatLogMessage(type, context, message)));
}

int writePdf(const report::ReportDocument& doc, const std::string& output, int argc, char** argv,
             const Progress& progress) {
    // No display: Qt's offscreen platform (QFontDatabase, QPicture and QCustomPlot all work on it).
    if (!qEnvironmentVariableIsSet("DISPLAY") && !qEnvironmentVariableIsSet("WAYLAND_DISPLAY") &&
        !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    previousHandler = qInstallMessageHandler(quietHandler);
    QApplication app(argc, argv);
    // Charts render here on the GUI thread; the pages are laid out and painted on a worker.
    QFutureWatcher<QString> watcher;
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<QString>::finished, &loop, &QEventLoop::quit);
    progress(0.0, "charts");
    watcher.setFuture(ui::exportReportPdf(doc, QString::fromStdString(output), progress));
    if (!watcher.isFinished())
        loop.exec();
    const QString error = watcher.result();
    if (!error.isEmpty())
        throw std::runtime_error(error.toStdString());
    return kOk;
}
#endif

} // namespace

int runReport(const CliArgs& args, int argc, char** argv) {
    if (args.positional.size() != 1)
        throw UsageError("report takes exactly one MODEL");
    const auto output = args.get("output");
    if (!output || output->empty())
        throw UsageError(
            "report needs -o FILE (.pdf, .md, .html or .json; '-' writes md/html/json to stdout)");
    const std::string format = formatOf(args, *output);
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
    auto target =
        std::make_shared<const TargetProfile>(loadTargetProfile(args.get("target").value_or("s100")));
    EditList edits;
    if (auto file = args.get("edits"))
        edits = loadEditFile(*file);
    Graph graph = ModelImporter::load(args.positional[0], args.importOptions());
    log(0.1, "analysis and estimate");
    Session session(std::move(graph), target);
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
    input.session = &session;
    input.baseline = baseline ? &*baseline : nullptr;
    const bool pdf = format == "pdf";
    const report::ReportDocument doc = report::buildReport(input, log.range(0.3, pdf ? 0.5 : 0.95));

    if (format == "md")
        writeOutput(*output, report::renderMarkdown(doc));
    else if (format == "html")
        writeOutput(*output, report::renderHtml(doc));
    else if (format == "json")
        writeOutput(*output, report::reportJson(doc).dump(2) + "\n");
    else {
#ifdef BPUSCOPE_CLI_PDF
        writePdf(doc, *output, argc, argv, log.range(0.5, 1.0));
#else
        (void)argc;
        (void)argv;
#endif
    }
    log(1.0, "written");
    if (*output != "-")
        std::cout << "wrote " << *output << " (" << format << ")\n";
    return kOk;
}

} // namespace bpu::cli
