// SPDX-License-Identifier: MIT
#pragma once

#include "core/edit/Session.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bpu::ui {

/// Writes the PDF report of a session snapshot without blocking the GUI (File > Export Report): the
/// document is built on a worker, the charts are recorded on the GUI thread (QCustomPlot is a widget), the
/// pages are laid out and painted on a worker. One export at a time; the exporter must outlive its job (its
/// destructor cancels and waits).
class ReportExporter : public QObject {
    Q_OBJECT
public:
    /// What to report, snapshotted on the GUI thread and never touched by it afterwards.
    struct Job {
        std::shared_ptr<const Session> session;  ///< the model as reported, finding gains estimated
        std::shared_ptr<const Session> baseline; ///< before the edits; null when none were applied
        nlohmann::json edits = nlohmann::json::array();
        std::vector<std::string> editDescriptions;
        QString path;
    };

    explicit ReportExporter(QObject* parent = nullptr);
    ~ReportExporter() override;

    /// Starts an export; returns false (and does nothing) while another one runs.
    bool start(Job job);
    /// Asks the running export to stop at its next check; finished("cancelled") follows.
    void cancel();
    bool isRunning() const { return running_; }

signals:
    /// Overall progress in [0, 1] with the stage's name, delivered on this object's thread.
    void progress(double fraction, const QString& stage);
    /// The export ended: an empty error on success, "cancelled", or what went wrong (naming the file).
    void finished(const QString& error);

private:
    void charts();
    void done(const QString& error);

    struct Built;
    std::shared_ptr<std::atomic<bool>> stop_;
    std::shared_ptr<Built> built_;
    QFutureWatcher<QString> buildWatcher_, writeWatcher_;
    QString path_;
    bool running_ = false;
};

} // namespace bpu::ui
