// SPDX-License-Identifier: MIT
// Writing a report document (the analysis report, a comparison) in the format the user asked for.
#include "DocumentOutput.h"

#include "core/util/OutputFile.h"

#include "core/report/ReportRenderers.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <unistd.h>

#ifdef BPUSCOPE_CLI_PDF
#include "ui/report/PdfReportWriter.h"

#include <QApplication>
#include <QEventLoop>
#include <QFile>
#include <QFutureWatcher>
#include <QTemporaryDir>
#endif

namespace bpu::cli {

namespace {

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (size_t i = 0; i < v.size(); ++i)
        out += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + v[i];
    return out;
}

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

void writePdf(const report::ReportDocument& doc, const std::string& output, int argc, char** argv,
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
    // A regular file (a symlink's target) is written atomically by the PDF writer itself; a stream (a FIFO,
    // /dev/stdout) gets the finished file's bytes, so a failed export never sends it half a PDF.
    const OutputFile out = OutputFile::resolve(output);
    QTemporaryDir scratch;
    if (out.mode() != OutputFile::Mode::Atomic && !scratch.isValid())
        throw std::runtime_error(output + ": cannot write: no temporary folder for the PDF");
    const QString file = out.mode() == OutputFile::Mode::Atomic
                             ? QString::fromStdString(out.target())
                             : scratch.filePath(QStringLiteral("report.pdf"));
    watcher.setFuture(ui::exportReportPdf(doc, file, progress));
    if (!watcher.isFinished())
        loop.exec();
    const QString error = watcher.result();
    if (!error.isEmpty())
        throw std::runtime_error(error.toStdString());
    if (out.mode() != OutputFile::Mode::Atomic) {
        QFile pdf(file);
        if (!pdf.open(QIODevice::ReadOnly))
            throw std::runtime_error(output +
                                     ": cannot read the PDF back: " + pdf.errorString().toStdString());
        const QByteArray bytes = pdf.readAll();
        out.write(std::string_view(bytes.constData(), size_t(bytes.size())));
    }
}
#endif

} // namespace

std::string documentFormat(const CliArgs& args, const std::string& output,
                           const std::vector<std::string>& allowed) {
    auto ok = [&allowed](const std::string& f) {
        return std::find(allowed.begin(), allowed.end(), f) != allowed.end();
    };
    if (auto f = args.get("format")) {
        if (!ok(*f))
            throw UsageError("--format must be " + joined(allowed) + ", got '" + *f + "'");
        return *f;
    }
    std::string ext = std::filesystem::path(output).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    std::string f = ext == ".md" || ext == ".markdown" ? "md"
                    : ext == ".html" || ext == ".htm"  ? "html"
                    : ext == ".json"                   ? "json"
                    : ext == ".csv"                    ? "csv"
                                                       : "pdf";
    if (!ok(f))
        throw UsageError(output + ": cannot tell the format from the name; give --format " + joined(allowed));
    return f;
}

void checkWritable(const std::string& output) {
    OutputFile::resolve(output); // the same checks the writer makes: a folder, a missing or locked parent
}

void writeDocument(const report::ReportDocument& doc, const std::string& format, const std::string& output,
                   int argc, char** argv, const Progress& progress) {
    if (format == "md")
        writeOutput(output, report::renderMarkdown(doc));
    else if (format == "html")
        writeOutput(output, report::renderHtml(doc));
    else if (format == "json")
        writeOutput(output, report::reportJson(doc).dump(2) + "\n");
    else if (format == "pdf") {
        if (output == "-")
            throw UsageError("a PDF cannot go to stdout; give -o FILE.pdf");
#ifdef BPUSCOPE_CLI_PDF
        writePdf(doc, output, argc, argv, progress);
#else
        (void)argc;
        (void)argv;
        (void)progress;
        throw UsageError("this bpuscope-cli was built without the GUI libraries: PDF output is unavailable "
                         "(use --format md, html or json)");
#endif
    } else {
        throw UsageError("unknown document format '" + format + "'");
    }
}

} // namespace bpu::cli
