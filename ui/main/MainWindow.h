// SPDX-License-Identifier: MIT
#pragma once

#include "ModelSummary.h"

#include <QFutureWatcher>
#include <QMainWindow>
#include <atomic>
#include <memory>

class QTextBrowser;
class QProgressBar;
class QPushButton;
class QLabel;

namespace bpu::ui {

/// The workbench window. Loading runs on a worker thread; the window keeps the previous model until the
/// new one has loaded, and a failed load only shows the core's error.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Starts loading `path` in the background; `loaded` or `loadFailed` follows.
    void openModel(const QString& path);
    const LoadedModel* model() const { return model_.get(); }
    bool isLoading() const { return watcher_.isRunning(); }
    void cancelLoad();

signals:
    void loaded();
    void loadFailed(const QString& message);
    void loadProgress(double fraction, const QString& stage);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    void buildMenus();
    void onLoadFinished();
    void showModel();
    void addRecent(const QString& path);
    void rebuildRecentMenu();

    QTextBrowser* summary_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QLabel* status_ = nullptr;
    class QMenu* recentMenu_ = nullptr;
    std::shared_ptr<const LoadedModel> model_;
    QFutureWatcher<std::shared_ptr<const LoadedModel>> watcher_;
    std::shared_ptr<std::atomic<bool>> cancelFlag_;
    QString pendingPath_;
    QString lastError_;
};

} // namespace bpu::ui
