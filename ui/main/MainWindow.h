// SPDX-License-Identifier: MIT
#pragma once

#include "ColorModes.h"
#include "InputShapeDialog.h"
#include "ui/session/JobTracker.h"
#include "ui/session/SessionController.h"
#include "ui/session/Snapshot.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;

namespace bpu::ui {

class ChartsPanel;
class ComparePanel;
class PlanPanel;
class FindingsPanel;
class GraphView;
class HotspotPanel;
class InspectorPanel;
class ModelComparer;
class NodeColoring;
class ReportExporter;
class SelectionHub;
class WhatIfActions;
class DeploymentActions;
class DiagnosticsDialog;
class ResultBanner;

/// The workbench: graph (centre), inspector, hotspots, findings, charts, what-if compare and history docks.
/// All model work runs in the session layer (ui/session) and its one job tracker; this window shows
/// snapshots and routes actions. Errors are shown in non-blocking message boxes, one per problem.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens `path` in the background (`loaded` or `loadFailed` follows); the previous model stays until
    /// then. With unsaved edits the user is asked first (false: they kept the model).
    bool openModel(const QString& path);
    /// Opens a `.bpuscope` project: its model with its target and edits. A project whose model is missing
    /// says so once and opens nothing; one whose model changed says so once and applies the edits that fit.
    bool openProject(const QString& path);
    /// Loads the open model's file again and re-applies its edit steps (those that no longer fit are named)
    /// and the baseline.
    bool reload();
    void setTarget(const QString& target);
    void setColorMode(ColorMode m);
    /// Applies an edit list (an --edits file) as one undo step, to the open model, or to the next model
    /// opened when none is open yet.
    void applyEditList(EditList edits, const QString& source = {});
    void cancelLoad();
    bool isLoading() const;
    /// Exports the report of the current state to `path` (format by extension) in the background, with
    /// progress and Cancel in the status bar; `reportFinished` follows. False (with a message) when it cannot
    /// start.
    bool exportReportTo(const QString& path);
    /// File > Export Edited Model: writes the current state as an ONNX model at `onnxPath` and its hb_compile
    /// config beside it (same name, .yaml) in the background; `modelExported` follows. False (with a message)
    /// when it cannot start: no model, an idealized what-if in the state (named), an output the rules refuse.
    bool exportEditedModelTo(const QString& onnxPath);
    /// Selects the node with the largest estimated latency (what the inspector shows first) and shows it
    /// clear of the overlays; invalid id without a model.
    NodeId selectTopHotspot();
    /// File > Compare With...: compares the open model with `path` (loaded in the background), colours the
    /// graph by the latency delta and shows the comparison in the What-if dock; kept up to date after edits.
    void compareWith(const QString& path);
    ModelComparer* comparer() const { return comparer_; }
    /// True when the open state has edits not saved in a project.
    bool hasUnsavedEdits() const;

    SessionController* controller() const { return controller_; }
    JobTracker* jobs() const { return jobs_; }
    SelectionHub* selection() const { return hub_; }
    GraphView* graphView() const { return graph_; }
    HotspotPanel* hotspots() const { return hotspots_; }
    FindingsPanel* findings() const { return findings_; }
    InspectorPanel* inspector() const { return inspector_; }
    ComparePanel* compare() const { return compare_; }
    PlanPanel* planPanel() const { return plan_; }
    ChartsPanel* charts() const { return charts_; }
    ReportExporter* reportExporter() const { return exporter_; }
    WhatIfActions* whatIf() const { return whatIf_; }
    DeploymentActions* deployment() const { return deployment_; }
    /// The last error or warning box shown (null once closed).
    QMessageBox* lastMessage() const { return lastMessage_; }
    /// The open input-shape prompt (a model with unresolved input dims), or null.
    InputShapeDialog* inputShapePrompt() const { return shapePrompt_; }
    /// The PARTIAL strip over the graph (issue 42) and the diagnostics list, when open (tests).
    ResultBanner* resultBanner() const { return banner_; }
    DiagnosticsDialog* diagnosticsDialog() const;
    /// Opens (or raises) the list of the shown result's diagnostics.
    void showDiagnostics();
    /// The status bar's estimate, its breakdown and the delta-vs-baseline labels.
    QLabel* estimateLabel() const { return estimate_; }
    QLabel* breakdownLabel() const { return breakdown_; }
    QLabel* deltaLabel() const { return delta_; }
    QAction* undoAction() const { return undo_; }
    QAction* redoAction() const { return redo_; }
    QAction* darkModeAction() const { return darkMode_; }
    SnapshotPtr snapshot() const;

    /// Where a file dialog of kind `key` starts (issue 63): the folder last used for it, else the open
    /// model's, else the home folder - never the process's working folder.
    QString dialogDir(const QString& key) const;

signals:
    void loaded();
    void loadFailed(const QString& message);
    /// A snapshot landed and every panel shows it.
    void updated();
    /// Every background job (load, re-estimate, sweep, layout, export) has finished.
    void settled();
    /// Every background job but a drag editor's curve has finished (JobTracker::shown): the window shows the
    /// model, its findings and its drawing; the curve is an extra that may still be computing.
    void shown();
    /// An export ended: `error` empty on success, "cancelled", or the problem.
    void reportFinished(const QString& path, const QString& error);
    /// An edited-model export ended: `error` empty on success (then `summary` says what was written), else
    /// the problem or "cancelled".
    void modelExported(const QString& onnxPath, const QString& summary, const QString& error);
    /// An error or warning box was shown with `text`.
    void messageShown(const QString& text);
    /// An edit was refused by the core and dropped (only that edit); `why` names it and says why.
    void editRejected(const QString& why);

protected:
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

private:
    void buildUi();
    void buildMenus();
    void connectSession();
    void showSnapshot(SnapshotPtr s);
    void resetPanels();
    void updateStatus(const Snapshot& s);
    /// The banner, the status bar's diagnostics label and an open diagnostics list, from the snapshot.
    void updateDiagnostics(const Snapshot& s);
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    bool saveProject();
    bool saveProjectAs();
    void exportReport();
    void exportEditedModel();
    // MainWindowCompare.cpp
    void buildCompare();
    void chooseCompareFile();
    void showComparison();
    /// The graph colouring for the current mode; the delta mode measures against the compared model while a
    /// comparison is shown, else against the what-if baseline.
    std::shared_ptr<const NodeColoring> coloring(const Snapshot& s) const;
    void showMessage(QMessageBox::Icon icon, const QString& title, const QString& text);
    /// Asks what to do with unsaved edits before they would be lost (`what`: "quitting", ...); true to go
    /// on (saved or discarded), false to stay.
    bool maybeSave(const QString& what);
    /// Remembers the folder of `path` for dialogs of kind `key`.
    void rememberDir(const QString& key, const QString& path);
    void open(OpenRequest request);
    /// What opens the model of `s` again as it is: its file, target, shape answers, edit steps (re-applied
    /// where they fit), baseline, deployment and project.
    OpenRequest reloadRequest(const Snapshot& s) const;
    /// Opens the model again under deployment `d`, whose input shapes or batch differ from the current
    /// one's: the edit steps are re-applied where they fit at the new shapes.
    void reopenWithDeploy(const DeploySettings& d);
    void promptInputShapes(const QStringList& warnings);

    JobTracker* jobs_;
    SessionController* controller_;
    SelectionHub* hub_;
    GraphView* graph_ = nullptr;
    HotspotPanel* hotspots_ = nullptr;
    FindingsPanel* findings_ = nullptr;
    InspectorPanel* inspector_ = nullptr;
    ComparePanel* compare_ = nullptr;
    PlanPanel* plan_ = nullptr;
    ChartsPanel* charts_ = nullptr;
    WhatIfActions* whatIf_ = nullptr;
    DeploymentActions* deployment_ = nullptr;
    ReportExporter* exporter_ = nullptr;
    ModelComparer* comparer_ = nullptr;
    QAction* exportAction_ = nullptr;
    QAction* exportModelAction_ = nullptr;
    QAction* compareAction_ = nullptr;
    QAction* reloadAction_ = nullptr;
    QAction* saveAction_ = nullptr;
    QAction* undo_ = nullptr;
    QAction* redo_ = nullptr;
    QAction* darkMode_ = nullptr;
    QComboBox* targetBox_ = nullptr;
    QComboBox* colorBox_ = nullptr;
    QLabel* estimate_ = nullptr;
    QLabel* breakdown_ = nullptr;
    QLabel* delta_ = nullptr;
    QLabel* warning_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* reportProgress_ = nullptr;
    QPushButton* reportCancel_ = nullptr;
    QPointer<QMessageBox> lastMessage_;
    QPointer<InputShapeDialog> shapePrompt_;
    ResultBanner* banner_ = nullptr;
    QPointer<DiagnosticsDialog> diagnostics_;
    QMenu* recentMenu_ = nullptr;
    ColorMode colorMode_ = ColorMode::Placement;
    bool showDeltaOnCompare_ = false; ///< the next comparison result switches to the delta mode
    QString pendingPath_;
    QString pendingNote_;     ///< said with the load's outcome (a project's model changed since it was saved)
    QString requestedTarget_; ///< the last target asked for (removed from the selector if it fails to load)
    std::vector<HistoryStep> pendingSteps_; ///< edits for the next model opened (an --edits file)
    QStringList warnings_;                  ///< what the import of the open model left open
    uint64_t shownModel_ = 0;
    std::vector<int> shownGroups_;
};

} // namespace bpu::ui
