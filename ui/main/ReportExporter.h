// SPDX-License-Identifier: MIT
#pragma once

#include <QFutureWatcher>
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

    explicit ReportExporter(SessionController* controller, QObject* parent = nullptr);
    ~ReportExporter() override;

    /// The format for a file name's extension (.pdf, .md/.markdown, .html/.htm, .json); false when the
    /// extension is none of them.
    static bool formatFor(const QString& path, Format* format);

    /// Starts writing the report to `path`; progress and finished follow. Returns false, doing nothing, while
    /// another export runs, without a model, or for an unknown extension (`error` says which).
    bool start(const QString& path, QString* error = nullptr);
    /// Asks the running export to stop; finished follows with "cancelled" and no file is left behind.
    void cancel();
    bool isRunning() const { return running_; }

signals:
    /// 0..1 and what is being done; on the GUI thread.
    void progress(double fraction, const QString& stage);
    /// The export ended: `error` is empty on success, "cancelled" when cancelled, else names the problem.
    void finished(const QString& path, const QString& error);

private:
    struct Built;
    void build(const QString& path, Format format, std::shared_ptr<ReportSources> sources);
    void writePdf(const QString& path, std::shared_ptr<report::ReportDocument> doc);
    void finish(const QString& path, const QString& error);
    /// A progress callback for worker threads mapping 0..1 onto [from, to] of the whole export.
    std::function<void(double, std::string_view)> reporter(double from, double to);

    SessionController* controller_;
    bool running_ = false;
    QString path_;
    double shown_ = 0; ///< the progress shown so far (it never goes back)
    std::shared_ptr<std::atomic<bool>> cancel_;
    QFutureWatcher<std::shared_ptr<Built>> buildWatcher_;
    QFutureWatcher<QString> pdfWatcher_;
};

} // namespace bpu::ui
