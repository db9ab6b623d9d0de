// SPDX-License-Identifier: MIT
#pragma once

#include "ui/session/JobTracker.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <string_view>

namespace bpu::report {
struct ReportDocument;
}

namespace bpu::ui {

class SessionController;
struct ReportSources;

/// File > Export Report: builds the report of the current state (the model as edited, against the model as
/// loaded when edits are applied: the same core calls as `bpuscope-cli report --edits`) and writes it as
/// PDF, Markdown, HTML or JSON by the file's extension. Everything heavy runs off the GUI thread: the
/// session is copied on the controller's worker, the document is built and text formats are written on the
/// thread pool, the PDF's charts are drawn on the GUI thread and its pages written on a worker (ui/report).
class ReportExporter : public QObject {
    Q_OBJECT
public:
    enum class Format { Pdf, Markdown, Html, Json };

    ReportExporter(SessionController* controller, JobTracker* jobs, QObject* parent = nullptr);
    ~ReportExporter() override;

    /// The format for a file name's extension (.pdf, .md/.markdown, .html/.htm, .json); false when the
    /// extension is none of them.
    static bool formatFor(const QString& path, Format* format);

    /// Starts writing the report to `path`; progress and finished follow. An export still running is
    /// cancelled (the newest request wins: it finishes Cancelled). Returns false, doing nothing, without a
    /// model or for an unknown extension (`error` says which).
    bool start(const QString& path, QString* error = nullptr);
    /// Asks the running export to stop; finished follows with Cancelled and no file is left behind.
    void cancel();
    bool isRunning() const { return current_ != nullptr; }

signals:
    /// 0..1 and what is being done; on the GUI thread.
    void progress(double fraction, const QString& stage);
    /// The export ended: Done, Cancelled (nothing written) or Failed (`error` names the problem).
    void finished(const QString& path, bpu::ui::JobOutcome outcome, const QString& error);

private:
    struct Built;
    struct Run;
    void build(const std::shared_ptr<Run>& run, std::shared_ptr<ReportSources> sources);
    void writePdf(const std::shared_ptr<Run>& run, std::shared_ptr<report::ReportDocument> doc);
    void finish(const std::shared_ptr<Run>& run, JobOutcome outcome, const QString& error);
    /// A progress callback for worker threads mapping 0..1 onto [from, to] of the run's export.
    Progress progressFor(const std::shared_ptr<Run>& run, double from, double to);

    SessionController* controller_;
    JobTracker* jobs_;
    std::shared_ptr<Run> current_; ///< the newest export, while it runs
    double shown_ = 0;             ///< the progress shown so far (it never goes back)
};

} // namespace bpu::ui
