// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

class QLabel;
class QLineEdit;

namespace bpu::ui {

class GraphView;

/// Find bar for the graph view (Ctrl+F): typing highlights all matches, Enter / Shift+Enter (or the arrows)
/// step through them, Esc closes and clears the highlight.
class GraphSearchBar : public QFrame {
    Q_OBJECT
public:
    explicit GraphSearchBar(GraphView* view);
    /// Shows the bar and focuses the text field.
    void activate();
    /// Empties the text field (the view's matches follow).
    void clear();
    QLineEdit* edit() const { return edit_; }
    QLabel* count() const { return count_; }

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void updateCount();

    GraphView* view_;
    QLineEdit* edit_;
    QLabel* count_;
};

} // namespace bpu::ui
