// SPDX-License-Identifier: MIT
#include "DiagnosticsDialog.h"

#include "core/model/Completeness.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bpu::ui {

DiagnosticsDialog::DiagnosticsDialog(QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("diagnosticsDialog"));
    setWindowTitle(tr("Diagnostics"));
    partial_ = new QLabel(this);
    partial_->setWordWrap(true);
    partial_->setTextFormat(Qt::PlainText);
    partial_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    list_ = new QTreeWidget(this);
    list_->setRootIsDecorated(false);
    list_->setWordWrap(true);
    list_->setHeaderLabels({tr("Severity"), tr("Code"), tr("File"), tr("Text")});
    list_->header()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(partial_);
    layout->addWidget(list_, 1);
    layout->addWidget(buttons);
    resize(820, 360);
}

void DiagnosticsDialog::setDiagnostics(const Completeness& c, const std::vector<Diagnostic>& diagnostics) {
    partial_->setVisible(!c.complete());
    partial_->setText(c.complete() ? QString() : tr("PARTIAL: %1.").arg(QString::fromStdString(c.summary())));
    list_->clear();
    for (const auto& d : diagnostics) {
        auto* item = new QTreeWidgetItem(list_);
        item->setText(0, QString::fromUtf8(diagSeverityName(d.severity)));
        item->setText(1, QString::fromUtf8(diagCodeName(d.code)));
        item->setText(2, QString::fromStdString(d.file));
        item->setText(3, QString::fromStdString(d.text));
        item->setToolTip(3, QString::fromStdString(d.text));
    }
    if (diagnostics.empty())
        (new QTreeWidgetItem(list_))->setText(3, tr("No warnings or notes."));
    for (int i = 0; i < 3; ++i)
        list_->resizeColumnToContents(i);
}

QString DiagnosticsDialog::partialText() const {
    return partial_->text();
}

} // namespace bpu::ui
