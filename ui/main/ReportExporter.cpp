// SPDX-License-Identifier: MIT
#include "ReportExporter.h"

#include "ui/session/OutputCheck.h"

#include "core/edit/Session.h"
#include "core/report/ReportBuilder.h"
#include "core/report/ReportRenderers.h"
#include "core/util/Progress.h"
#include "core/util/SafeFile.h"
#include "ui/report/PdfReportWriter.h"
#include "ui/session/SessionController.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QPointer>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>

namespace bpu::ui {

/// The outcome of the build step: an error, or the document (PDF) / nothing left to do (text formats).
struct ReportExporter::Built {
    JobOutcome outcome = JobOutcome::Done;
    QString error;
    std::shared_ptr<report::ReportDocument> doc;
};

/// One export: its job, where it writes, and the watchers of its two stages.
struct ReportExporter::Run {
    JobTicket ticket;
    QString path;      ///< as the user chose it: what messages name
    QString writePath; ///< what QSaveFile writes: the file a symlink chain names (checkedOutputPath)
    Format format = Format::Pdf;
    QFutureWatcher<std::shared_ptr<Built>>* build = nullptr;
    QFutureWatcher<QString>* pdf = nullptr;
    bool finished = false;
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

ReportExporter::ReportExporter(SessionController* controller, JobTracker* jobs, QObject* parent)
    : QObject(parent)
    , controller_(controller)
    , jobs_(jobs) {}

ReportExporter::~ReportExporter() {
    // Every run's watchers are children of this object; wait for their work before they go.
    jobs_->cancel(JobLane::Export);
    for (auto* w : findChildren<QFutureWatcher<std::shared_ptr<Built>>*>())
        w->waitForFinished();
    for (auto* w : findChildren<QFutureWatcher<QString>*>())
        w->waitForFinished();
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

Progress ReportExporter::progressFor(const std::shared_ptr<Run>& run, double from, double to) {
    QPointer<ReportExporter> self(this);
    std::weak_ptr<Run> weak = run;
    return run->ticket.progress([self, weak, from, to](double f, std::string_view stage) {
        const double at = from + (to - from) * std::clamp(f, 0.0, 1.0);
        const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
        QMetaObject::invokeMethod(self, [self, weak, at, text] {
            const auto run = weak.lock();
            if (!self || !run || run != self->current_)
                return; // a superseded export's progress is not shown
            // The PDF writer's stages report overlapping fractions (its figures restart at 0.1): a bar that
            // jumps back reads as a restart, so it only ever moves forward.
            self->shown_ = std::max(self->shown_, at);
            emit self->progress(self->shown_, text);
        });
    });
}

bool ReportExporter::start(const QString& path, QString* error) {
    Format format;
    QString why, target;
    if (!controller_->hasModel())
        why = tr("no model is open");
    else if (!formatFor(path, &format))
        why = tr("%1: unknown report format '.%2': use .pdf, .md, .html or .json")
                  .arg(path, QFileInfo(path).suffix());
    else if (const auto snap = controller_->snapshot(); snap)
        // The CLI's output rules: a symlink written through, never the model or its external data.
        target = checkedOutputPath(path, snap->graph.get(), &why);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    // The newest export wins: one still running is cancelled through its flag and finishes Cancelled.
    auto run = std::make_shared<Run>();
    run->ticket = jobs_->begin(JobLane::Export);
    run->path = path;
    run->writePath = target;
    run->format = format;
    current_ = run;
    shown_ = 0;
    emit progress(0.0, tr("copying the session"));
    QPointer<ReportExporter> self(this);
    controller_->reportSources([self, run](std::shared_ptr<ReportSources> src) {
        if (self)
            self->build(run, std::move(src));
    });
    return true;
}

void ReportExporter::cancel() {
    jobs_->cancel(JobLane::Export);
}

void ReportExporter::build(const std::shared_ptr<Run>& run, std::shared_ptr<ReportSources> src) {
    if (run->ticket.cancelled()) {
        finish(run, JobOutcome::Cancelled, {});
        return;
    }
    if (!src || !src->current) {
        finish(run, JobOutcome::Failed,
               tr("%1: the session could not be copied for the report").arg(run->path));
        return;
    }
    const Progress progress = progressFor(run, 0.0, run->format == Format::Pdf ? kBuildShare : 0.95);
    run->build = new QFutureWatcher<std::shared_ptr<Built>>(this);
    connect(run->build, &QFutureWatcherBase::finished, this, [this, run] {
        const auto built = run->build->result();
        run->build->deleteLater();
        if (built->outcome != JobOutcome::Done || !built->doc)
            finish(run, built->outcome, built->error);
        else
            writePdf(run, built->doc);
    });
    const Format format = run->format;
    const QString path = run->writePath;
    run->build->setFuture(QtConcurrent::run([src, progress, format, path]() -> std::shared_ptr<Built> {
        auto out = std::make_shared<Built>();
        try {
            if (!src->gainsEstimated) {
                progress(0.0, "finding gains");
                src->current->estimateFindingGains(progress);
            }
            progress.checkCancel();
            // The same input `bpuscope-cli report --edits` builds: the edited session against its baseline.
            report::ReportInput in;
            in.session = src->current.get();
            in.baseline = src->baseline.get();
            in.edits = src->edits;
            in.baselineNote = src->baselineNote;
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
            if (!out->error.isEmpty())
                out->outcome = JobOutcome::Failed;
        } catch (const Cancelled&) {
            out->outcome = JobOutcome::Cancelled;
        } catch (const std::exception& e) {
            out->outcome = JobOutcome::Failed;
            out->error = QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what()));
        }
        return out;
    }));
}

void ReportExporter::writePdf(const std::shared_ptr<Run>& run, std::shared_ptr<report::ReportDocument> doc) {
    if (run->ticket.cancelled()) {
        finish(run, JobOutcome::Cancelled, {});
        return;
    }
    if (run == current_) {
        shown_ = std::max(shown_, kBuildShare);
        emit progress(shown_, tr("drawing the charts"));
    }
    run->pdf = new QFutureWatcher<QString>(this);
    connect(run->pdf, &QFutureWatcherBase::finished, this, [this, run] {
        const QString error = run->pdf->result();
        run->pdf->deleteLater();
        if (error.isEmpty())
            finish(run, JobOutcome::Done, {});
        else if (run->ticket.cancelled())
            finish(run, JobOutcome::Cancelled, {}); // the writer removed its partial file
        else
            finish(run, JobOutcome::Failed, error);
    });
    // Draws the charts here (GUI thread), then lays out and paints the pages on a worker.
    run->pdf->setFuture(exportReportPdf(std::move(*doc), run->writePath, progressFor(run, kBuildShare, 1.0)));
}

void ReportExporter::finish(const std::shared_ptr<Run>& run, JobOutcome outcome, const QString& error) {
    if (run->finished)
        return;
    run->finished = true;
    if (run == current_) {
        current_.reset();
        if (outcome == JobOutcome::Done)
            emit progress(1.0, tr("done"));
    }
    jobs_->finish(run->ticket, outcome);
    emit finished(run->path, outcome, error);
}

} // namespace bpu::ui
