// SPDX-License-Identifier: MIT
#pragma once

#include <QPair>
#include <QVector>
#include <QWidget>

namespace bpu::ui {

class NodeColoring;

/// The colour key of the current NodeColoring: a title and one swatch per row, in a column, or in one row as
/// the strip above the graph view (GraphView docks it there, out of the nodes' way: issue 52).
class LegendWidget : public QWidget {
    Q_OBJECT
public:
    explicit LegendWidget(QWidget* parent = nullptr);
    /// Copies the title and rows of `coloring` (null clears).
    void setColoring(const NodeColoring* coloring);
    QString title() const { return title_; }
    const QVector<QPair<QString, QColor>>& rows() const { return rows_; }
    QSize sizeHint() const override;
    /// One row (title, then each swatch and its label) instead of a column.
    void setHorizontal(bool horizontal);
    bool isHorizontal() const { return horizontal_; }
    /// Only the title: a small window keeps its graph visible. A click toggles it, and from then on the
    /// user's choice holds whatever the size (userChose()).
    void setCollapsed(bool collapsed);
    bool isCollapsed() const { return collapsed_; }
    bool userChose() const { return userChose_; }

signals:
    void collapsedChanged(bool collapsed);

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;

private:
    void relayout();

    bool collapsed_ = false;
    bool horizontal_ = false;
    bool userChose_ = false;
    QString title_;
    QVector<QPair<QString, QColor>> rows_;
};

} // namespace bpu::ui
