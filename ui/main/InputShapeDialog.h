// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QStringList>
#include <map>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;

namespace bpu::ui {

/// Asks for the shape of each model input whose dims the file leaves open (symbolic or unknown), instead of
/// showing numbers computed on unknown shapes as if they were sure. Non-modal; `chosen` carries the shapes.
class InputShapeDialog : public QDialog {
    Q_OBJECT
public:
    struct Input {
        QString name;
        std::vector<int64_t> dims;        ///< as far as known (-1 open); empty when even the rank is unknown
        std::vector<std::string> symbols; ///< the file's dim names ("height"); empty when it names none
    };
    using Shapes = std::map<std::string, std::vector<int64_t>>;

    InputShapeDialog(const std::vector<Input>& inputs, const QStringList& warnings,
                     QWidget* parent = nullptr);
    /// The field for input `i` (tests type into it).
    QLineEdit* field(int i) const { return fields_.at(size_t(i)); }
    /// Why the shapes typed are not usable yet, empty when they are.
    QString problem() const;

signals:
    void chosen(const bpu::ui::InputShapeDialog::Shapes& shapes);

private:
    void check();

    std::vector<Input> inputs_;
    std::vector<QLineEdit*> fields_;
    QLabel* problem_;
    QPushButton* ok_ = nullptr;
};

} // namespace bpu::ui
