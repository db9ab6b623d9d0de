// SPDX-License-Identifier: MIT
#include "InputShapeDialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace bpu::ui {

namespace {

/// "1x3x?x?" with the file's dims, '?' where open.
QString shapeText(const InputShapeDialog::Input& in) {
    QStringList parts;
    for (int64_t d : in.dims)
        parts << (d > 0 ? QString::number(d) : QStringLiteral("?"));
    return parts.join(QLatin1Char('x'));
}

/// The dims of "1x3x640x640", or an empty vector when the text is not such a shape.
std::vector<int64_t> parseShape(const QString& text) {
    std::vector<int64_t> dims;
    for (const QString& part : text.split(QLatin1Char('x'), Qt::KeepEmptyParts)) {
        bool ok = false;
        const qlonglong v = part.trimmed().toLongLong(&ok);
        if (!ok || v <= 0)
            return {};
        dims.push_back(v);
    }
    return dims;
}

} // namespace

InputShapeDialog::InputShapeDialog(const std::vector<Input>& inputs, const QStringList& warnings,
                                   QWidget* parent)
    : QDialog(parent)
    , inputs_(inputs)
    , problem_(new QLabel(this)) {
    setWindowTitle(tr("Input shape needed"));
    setObjectName(QStringLiteral("inputShapePrompt"));
    auto* intro = new QLabel(
        tr("The model leaves input dims open, so its numbers would be estimated on unknown shapes:\n%1\n\n"
           "Give the shape to analyse it with (as `--input-shape` does on the command line):")
            .arg(warnings.join(QLatin1Char('\n'))),
        this);
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    for (const Input& in : inputs_) {
        auto* f = new QLineEdit(shapeText(in), this);
        f->setPlaceholderText(QStringLiteral("1x3x640x640"));
        connect(f, &QLineEdit::textChanged, this, &InputShapeDialog::check);
        form->addRow(in.name, f);
        fields_.push_back(f);
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    ok_->setText(tr("Analyse with these shapes"));
    buttons->button(QDialogButtonBox::Cancel)->setText(tr("Keep the open dims"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (!problem().isEmpty())
            return;
        Shapes shapes;
        for (size_t i = 0; i < inputs_.size(); ++i)
            shapes[inputs_[i].name.toStdString()] = parseShape(fields_[i]->text());
        emit chosen(shapes);
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    problem_->setWordWrap(true);
    auto* lay = new QVBoxLayout(this);
    lay->addWidget(intro);
    lay->addLayout(form);
    lay->addWidget(problem_);
    lay->addWidget(buttons);
    check();
}

QString InputShapeDialog::problem() const {
    for (size_t i = 0; i < inputs_.size(); ++i) {
        const std::vector<int64_t> dims = parseShape(fields_[i]->text());
        if (dims.empty())
            return tr("%1: give every dim as a positive number, like 1x3x640x640").arg(inputs_[i].name);
        if (!inputs_[i].dims.empty() && dims.size() != inputs_[i].dims.size())
            return tr("%1 has rank %2").arg(inputs_[i].name).arg(inputs_[i].dims.size());
    }
    return {};
}

void InputShapeDialog::check() {
    const QString p = problem();
    problem_->setText(p);
    if (ok_)
        ok_->setEnabled(p.isEmpty());
}

} // namespace bpu::ui
