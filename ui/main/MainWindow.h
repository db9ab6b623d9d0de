// SPDX-License-Identifier: MIT
#pragma once

#include "ColorModes.h"
#include "Snapshot.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <nlohmann/json.hpp>

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace bpu::ui {

class ChartsPanel;
class ComparePanel;
class FindingsPanel;
class GraphView;
class HotspotPanel;
class InspectorPanel;
class ModelComparer;
class NodeColoring;
class ReportExporter;
class SelectionHub;
class SessionController;
class WhatIfActions;

/// The workbench: graph (centre), inspector, hotspots, findings, charts, what-if compare and history docks.
/// All model work runs in the SessionController's worker (and report exports on the thread pool); this
/// window only shows snapshots and routes actions. Errors are shown in non-blocking message boxes.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads `path` in the background (`loaded` or `loadFailed` follows); the previous model stays until
    /// then.
    void openModel(const QString& path);
    void openProject(const QString& path);
    void setTarget(const QString& target);
    void setColorMode(ColorMode m);
    /// Applies an edit list ({"edits": [...]}) as undoable commands once the model is loaded.
    void applyEditList(const nlohmann::json& edits, const QString& source = {});
    void cancelLoad();
    bool isLoading() const;
    /// Exports the report of the current state to `path` (format by extension) in the background, with
    /// progress and Cancel in the status bar; `reportFinished` follows. False (with a message) when it cannot
    /// start.
    bool exportReportTo(const QString& path);
    /// Selects the node with the largest estimated latency (what the inspector shows first); invalid id
    /// without a model.
    NodeId selectTopHotspot();
    /// File > Compare With...: compares the open model with `path` (loaded in the background), colours the
    /// graph by the latency delta and shows the comparison in the What-if dock; kept up to date after edits.
    void compareWith(const QString& path);
    ModelComparer* comparer() const { return comparer_; }

    SessionController* controller() const { return controller_; }
    SelectionHub* selection() const { return hub_; }
    GraphView* graphView() const { return graph_; }
    HotspotPanel* hotspots() const { return hotspots_; }
    FindingsPanel* findings() const { return findings_; }
    InspectorPanel* inspector() const { return inspector_; }
    ComparePanel* compare() const { return compare_; }
    ChartsPanel* charts() const { return charts_; }
    ReportExporter* reportExporter() const { return exporter_; }
    /// The last error or warning box shown (null once closed).
    QMessageBox* lastMessage() const { return lastMessage_; }
    /// The status bar's estimate and delta-vs-baseline labels.
    QLabel* estimateLabel() const { return estimate_; }
    QLabel* deltaLabel() const { return delta_; }
    WhatIfActions* whatIf() const { return whatIf_; }
    SnapshotPtr snapshot() const;

signals:
    void loaded();
    void loadFailed(const QString& message);
    /// A snapshot landed and every panel shows it.
    void updated();
    /// An export ended: `error` empty on success, "cancelled", or the problem.
    void reportFinished(const QString& path, const QString& error);
    /// An error or warning box was shown with `text`.
    void messageShown(const QString& text);
    /// An edit (or an edit list) was refused by the core and taken off the undo stack; `why` says why.
    void editRejected(const QString& why);

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
    // MainWindowCompare.cpp
    void buildCompare();
    void chooseCompareFile();
    void showComparison();
    /// The graph colouring for the current mode; the delta mode measures against the compared model while a
    /// comparison is shown, else against the what-if baseline.
    std::shared_ptr<const NodeColoring> coloring(const Snapshot& s) const;
    void showMessage(QMessageBox::Icon icon, const QString& title, const QString& text);

    SessionController* controller_;
    SelectionHub* hub_;
    GraphView* graph_ = nullptr;
    HotspotPanel* hotspots_ = nullptr;
    FindingsPanel* findings_ = nullptr;
    InspectorPanel* inspector_ = nullptr;
    ComparePanel* compare_ = nullptr;
    ChartsPanel* charts_ = nullptr;
    WhatIfActions* whatIf_ = nullptr;
    ReportExporter* exporter_ = nullptr;
    ModelComparer* comparer_ = nullptr;
    QAction* exportAction_ = nullptr;
    QAction* compareAction_ = nullptr;
    QAction* reloadAction_ = nullptr;
    QComboBox* targetBox_ = nullptr;
    QComboBox* colorBox_ = nullptr;
    QLabel* estimate_ = nullptr;
    QLabel* delta_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* reportProgress_ = nullptr;
    QPushButton* reportCancel_ = nullptr;
    QPointer<QMessageBox> lastMessage_;
    QMenu* recentMenu_ = nullptr;
    ColorMode colorMode_ = ColorMode::Placement;
    bool showDeltaOnCompare_ = false; ///< the next comparison result switches to the delta mode
    QString pendingPath_;
    QString requestedTarget_; ///< the last target asked for (removed from the selector if it fails to load)
    nlohmann::json pendingEdits_;
    QString pendingEditsTitle_; ///< the undo step's name for pendingEdits_
    uint64_t shownModel_ = 0;
    std::vector<int> shownGroups_;
};

} // namespace bpu::ui
