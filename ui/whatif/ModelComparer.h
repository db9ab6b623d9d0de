// SPDX-License-Identifier: MIT
#pragma once

#include "core/compare/ModelComparison.h"

#include <QObject>
#include <QString>

#include <memory>

namespace bpu {
class Session;
}

namespace bpu::ui {

class SessionController;

/// File > Compare With...: loads another model off the GUI thread (once), then compares the current state of
/// the open model with it (core/compare) after every change, newest request wins. Results are handed over
/// whole as an immutable Comparison.
class ModelComparer : public QObject {
    Q_OBJECT
public:
    explicit ModelComparer(SessionController* controller, QObject* parent = nullptr);
    ~ModelComparer() override;

    /// Loads `path` on the thread pool and compares; `updated` or `failed` follows.
    void compareWith(const QString& path);
    /// Compares again with the loaded model (after an edit or a target change); nothing without one.
    void refresh();
    /// Drops the comparison (and the other model); `cleared` follows.
    void clear();

    bool isActive() const { return !path_.isEmpty(); }
    /// A load or comparison is running.
    bool isBusy() const { return busy_; }
    QString otherPath() const { return path_; }
    std::shared_ptr<const Comparison> comparison() const { return result_; }

signals:
    void started(const QString& path);
    void updated(std::shared_ptr<const bpu::Comparison> comparison);
    void failed(const QString& message);
    void cleared();

private:
    void run(bool reload);

    SessionController* controller_;
    QString path_;
    std::shared_ptr<Session> other_; ///< the other model, analysed for the open model's target
    std::shared_ptr<const Comparison> result_;
    uint64_t generation_ = 0; ///< a result of an older request is dropped
    bool busy_ = false;
};

} // namespace bpu::ui
