// SPDX-License-Identifier: MIT
#include "ReportExporter.h"

#include "SessionController.h"
#include "core/edit/Session.h"
#include "core/report/ReportBuilder.h"
#include "core/report/ReportRenderers.h"
#include "core/util/Progress.h"
#include "ui/report/PdfReportWriter.h"

#include <QFileInfo>
#include <QPointer>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace bpu::ui {

/// The outcome of the build step: an error, or the document (PDF) / nothing left to do (text formats).
struct ReportExporter::Built {
    QString error;
    std::shared_ptr<report::ReportDocument> doc;
};

namespace {

// Share of the whole export the document build takes before the PDF's charts and pages.
constexpr double kBuildShare = 0.5;

QString writeText(const QString& path, const std::string& text) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
    if (file.write(text.data(), qint64(text.size())) != qint64(text.size()) || !file.commit())
        return QStringLiteral("%1: cannot write: %2").arg(path, file.errorString());
    return {};
}

} // namespace

ReportExporter::ReportExporter(SessionController* controller, QObject* parent)
    : QObject(parent)
    , controller_(controller) {
    connect(&buildWatcher_, &QFutureWatcherBase::finished, this, [this] {
        const auto built = buildWatcher_.result();
        if (!built->error.isEmpty() || !built->doc)
            finish(path_, built->error);
        else
            writePdf(path_, built->doc);
    });
    connect(&pdfWatcher_, &QFutureWatcherBase::finished, this,
            [this] { finish(path_, pdfWatcher_.result()); });
}

ReportExporter::~ReportExporter() {
    cancel();
    buildWatcher_.waitForFinished();
    pdfWatcher_.waitForFinished();
}

bool ReportExporter::formatFor(const QString& path, Format* format) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("pdf"))
        *format = Format::Pdf;
    else if (ext == QLatin1String("md") || ext == QLatin1String("markdown"))
        *format = Format::Markdown;
    else if (ext == QLatin1String("html") || ext == QLatin1String("htm"))
        *format = Format::Html;
    else if (ext == QLatin1String("json"))
        *format = Format::Json;
    else
        return false;
    return true;
}

std::function<void(double, std::string_view)> ReportExporter::reporter(double from, double to) {
    auto cancel = cancel_; // keeps the flag alive as long as the worker holds the callback
    return [this, cancel, from, to](double f, std::string_view stage) {
        const double at = from + (to - from) * std::clamp(f, 0.0, 1.0);
        const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
        // The exporter outlives its jobs (its destructor waits for them); a call still queued when it goes
        // is dropped with it.
        QMetaObject::invokeMethod(this, [this, at, text] {
            // The PDF writer's stages report overlapping fractions (its figures restart at 0.1): a bar that
            // jumps back reads as a restart, so it only ever moves forward.
            shown_ = std::max(shown_, at);
            emit progress(shown_, text);
        });
    };
}

bool ReportExporter::start(const QString& path, QString* error) {
    Format format;
    QString why;
    if (running_)
        why = tr("a report export is already running");
    else if (!controller_->hasModel())
        why = tr("no model is open");
    else if (!formatFor(path, &format))
        why = tr("%1: unknown report format '.%2': use .pdf, .md, .html or .json")
                  .arg(path, QFileInfo(path).suffix());
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    running_ = true;
    path_ = path;
    shown_ = 0;
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    emit progress(0.0, tr("copying the session"));
    QPointer<ReportExporter> self(this);
    controller_->reportSources([self, path, format](std::shared_ptr<ReportSources> src) {
        if (self)
            self->build(path, format, std::move(src));
    });
    return true;
}

void ReportExporter::cancel() {
    if (cancel_)
        cancel_->store(true);
}

void ReportExporter::build(const QString& path, Format format, std::shared_ptr<ReportSources> src) {
    if (cancel_->load()) {
        finish(path, QStringLiteral("cancelled"));
        return;
    }
    if (!src || !src->current) {
        finish(path, tr("%1: the session could not be copied for the report").arg(path));
        return;
    }
    Progress progress;
    progress.report = reporter(0.0, format == Format::Pdf ? kBuildShare : 0.95);
    progress.cancel = cancel_.get();
    auto cancel = cancel_;
    buildWatcher_.setFuture(
        QtConcurrent::run([src, progress, format, path, cancel]() -> std::shared_ptr<Built> {
            auto out = std::make_shared<Built>();
            try {
                if (!src->gainsEstimated) {
                    progress(0.0, "finding gains");
                    src->current->estimateFindingGains();
                }
                progress.checkCancel();
                // The same input `bpuscope-cli report --edits` builds: edited session, loaded one as
                // baseline.
                report::ReportInput in;
                in.session = src->current.get();
                in.baseline = src->baseline.get();
                in.edits = src->edits;
                auto doc = std::make_shared<report::ReportDocument>(report::buildReport(in, progress));
                progress.checkCancel();
                switch (format) {
                case Format::Pdf:
                    out->doc = std::move(doc);
                    break;
                case Format::Markdown:
                    out->error = writeText(path, report::renderMarkdown(*doc));
                    break;
                case Format::Html:
                    out->error = writeText(path, report::renderHtml(*doc));
                    break;
                case Format::Json:
                    out->error = writeText(path, report::reportJson(*doc).dump(2) + "\n");
                    break;
                }
            } catch (const Cancelled&) {
                out->error = QStringLiteral("cancelled");
            } catch (const std::exception& e) {
                out->error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
            }
            return out;
        }));
}

void ReportExporter::writePdf(const QString& path, std::shared_ptr<report::ReportDocument> doc) {
    if (cancel_->load()) {
        finish(path, QStringLiteral("cancelled"));
        return;
    }
    shown_ = std::max(shown_, kBuildShare);
    emit progress(shown_, tr("drawing the charts"));
    Progress progress;
    progress.report = reporter(kBuildShare, 1.0);
    progress.cancel = cancel_.get();
    // Draws the charts here (GUI thread), then lays out and paints the pages on a worker.
    pdfWatcher_.setFuture(exportReportPdf(std::move(*doc), path, progress));
}

void ReportExporter::finish(const QString& path, const QString& error) {
    running_ = false;
    if (error.isEmpty())
        emit progress(1.0, tr("done"));
    emit finished(path, error);
}

} // namespace bpu::ui
