// SPDX-License-Identifier: MIT
#pragma once

#include "ColorModes.h"
#include "Snapshot.h"

#include <QMainWindow>
#include <nlohmann/json.hpp>

class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace bpu::ui {

class ComparePanel;
class FindingsPanel;
class GraphView;
class HotspotPanel;
class InspectorPanel;
class SelectionHub;
class SessionController;
class WhatIfActions;

/// The workbench: graph (centre), inspector, hotspots, findings, what-if compare and history docks. All
/// model work runs in the SessionController's worker; this window only shows snapshots and routes actions.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads `path` in the background (`loaded` or `loadFailed` follows); the previous model stays until then.
    void openModel(const QString& path);
    void openProject(const QString& path);
    void setTarget(const QString& target);
    void setColorMode(ColorMode m);
    /// Applies an edit list ({"edits": [...]}) as undoable commands once the model is loaded.
    void applyEditList(const nlohmann::json& edits);
    void cancelLoad();
    bool isLoading() const;

    SessionController* controller() const { return controller_; }
    SelectionHub* selection() const { return hub_; }
    GraphView* graphView() const { return graph_; }
    HotspotPanel* hotspots() const { return hotspots_; }
    FindingsPanel* findings() const { return findings_; }
    InspectorPanel* inspector() const { return inspector_; }
    ComparePanel* compare() const { return compare_; }
    WhatIfActions* whatIf() const { return whatIf_; }
    SnapshotPtr snapshot() const;

signals:
    void loaded();
    void loadFailed(const QString& message);
    /// A snapshot landed and every panel shows it.
    void updated();

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildUi();
    void buildMenus();
    void showSnapshot(SnapshotPtr s);
    void updateStatus(const Snapshot& s);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void saveProjectAs();
    void exportReport();

    SessionController* controller_;
    SelectionHub* hub_;
    GraphView* graph_ = nullptr;
    HotspotPanel* hotspots_ = nullptr;
    FindingsPanel* findings_ = nullptr;
    InspectorPanel* inspector_ = nullptr;
    ComparePanel* compare_ = nullptr;
    WhatIfActions* whatIf_ = nullptr;
    QComboBox* targetBox_ = nullptr;
    QComboBox* colorBox_ = nullptr;
    QLabel* estimate_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    ColorMode colorMode_ = ColorMode::Placement;
    QString pendingPath_;
    nlohmann::json pendingEdits_;
    uint64_t shownModel_ = 0;
    std::vector<int> shownGroups_;
};

} // namespace bpu::ui
