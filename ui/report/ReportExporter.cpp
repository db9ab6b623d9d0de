// SPDX-License-Identifier: MIT
#include "ReportExporter.h"

#include "PdfReportWriter.h"
#include "core/report/ReportBuilder.h"

#include <QtConcurrent/QtConcurrentRun>

namespace bpu::ui {

/// The document between the build and the write (touched by one thread at a time).
struct ReportExporter::Built {
    report::ReportDocument doc;
};

namespace {

/// Progress of one stage mapped onto [from, to] of the whole export, forwarded to `target` on its thread.
/// `target` outlives the workers (its destructor waits for them); a queued call still pending when it is
/// destroyed is dropped with it.
Progress stageProgress(ReportExporter* target, const std::atomic<bool>* stop, double from, double to) {
    Progress p;
    p.cancel = stop;
    p.report = [target, from, to](double f, std::string_view stage) {
        const double overall = from + f * (to - from);
        const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
        QMetaObject::invokeMethod(
            target, [target, overall, text] { emit target->progress(overall, text); }, Qt::QueuedConnection);
    };
    return p;
}

} // namespace

ReportExporter::ReportExporter(QObject* parent)
    : QObject(parent) {
    connect(&buildWatcher_, &QFutureWatcher<QString>::finished, this, [this] {
        const QString error = buildWatcher_.result();
        if (!error.isEmpty())
            done(error);
        else
            charts();
    });
    connect(&writeWatcher_, &QFutureWatcher<QString>::finished, this,
            [this] { done(writeWatcher_.result()); });
}

ReportExporter::~ReportExporter() {
    cancel();
    buildWatcher_.waitForFinished();
    writeWatcher_.waitForFinished();
}

bool ReportExporter::start(Job job) {
    if (running_ || !job.session)
        return false;
    running_ = true;
    path_ = job.path;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    built_ = std::make_shared<Built>();
    const Progress p = stageProgress(this, stop_.get(), 0.0, 0.3);
    buildWatcher_.setFuture(
        // `stop` keeps the flag `p` points to alive while the worker runs.
        QtConcurrent::run([job = std::move(job), built = built_, stop = stop_, p]() -> QString {
            try {
                report::ReportInput in;
                in.session = job.session.get();
                in.baseline = job.baseline.get();
                in.edits = job.edits;
                in.editDescriptions = job.editDescriptions;
                built->doc = report::buildReport(in, p);
                return {};
            } catch (const Cancelled&) {
                return QStringLiteral("cancelled");
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        }));
    return true;
}

void ReportExporter::cancel() {
    if (stop_)
        stop_->store(true);
}

void ReportExporter::charts() {
    if (stop_->load()) {
        done(QStringLiteral("cancelled"));
        return;
    }
    emit progress(0.3, QStringLiteral("charts"));
    // GUI thread: QCustomPlot draws the charts into QPictures the worker replays.
    auto pictures = std::make_shared<ChartPictures>(renderReportCharts(built_->doc));
    const Progress p = stageProgress(this, stop_.get(), 0.35, 1.0);
    writeWatcher_.setFuture(
        QtConcurrent::run([built = built_, pictures, path = path_, stop = stop_, p]() -> QString {
            try {
                writeReportPdf(built->doc, *pictures, path, p);
                return {};
            } catch (const Cancelled&) {
                return QStringLiteral("cancelled");
            } catch (const std::exception& e) {
                return QString::fromStdString(e.what());
            }
        }));
}

void ReportExporter::done(const QString& error) {
    running_ = false;
    built_.reset();
    emit finished(error);
}

} // namespace bpu::ui
