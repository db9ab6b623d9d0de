// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/Diagnostic.h"

#include <QDialog>

#include <vector>

class QLabel;
class QTreeWidget;

namespace bpu {
struct Completeness;
}

namespace bpu::ui {

/// Every diagnostic of the shown result, one row each (severity, code, file, text), under the PARTIAL
/// sentence when the result is partial: the list the status bar only counts. Non-modal; MainWindow keeps it
/// up to date while it is open.
class DiagnosticsDialog : public QDialog {
    Q_OBJECT
public:
    explicit DiagnosticsDialog(QWidget* parent = nullptr);
    void setDiagnostics(const Completeness& c, const std::vector<Diagnostic>& diagnostics);
    QTreeWidget* list() const { return list_; }
    QString partialText() const;

private:
    QLabel* partial_ = nullptr;
    QTreeWidget* list_ = nullptr;
};

} // namespace bpu::ui
