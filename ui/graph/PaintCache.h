// SPDX-License-Identifier: MIT
#pragma once

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QHash>
#include <QPalette>
#include <QPen>

namespace bpu::ui {

/// Pens, brushes and fonts shared by every graph item, so painting 10k items does not allocate and equal
/// colours share one QBrush. GUI thread only; items fetch what they need in paint().
class PaintCache {
public:
    static PaintCache& instance();

    /// Re-derives the palette-dependent pens (edges, outlines, frames) so dark themes work.
    void setPalette(const QPalette& palette);

    /// The interned solid brush of `rgb`.
    const QBrush& brush(QRgb rgb);

    const QPen& edgePen() const { return edge_; }             ///< normal edges, cosmetic
    const QPen& edgeActivePen() const { return edgeActive_; } ///< edges of the selected node
    const QPen& outlinePen() const { return outline_; }       ///< box outline at normal zoom, cosmetic
    const QPen& groupPen() const { return group_; }           ///< double frame of a collapsed group
    const QPen& framePen() const { return frame_; }           ///< dashed frame around an expanded group
    const QPen& currentPen() const { return current_; }       ///< selected box
    const QPen& matchPen() const { return match_; }           ///< search matches
    const QPen& markPen() const { return mark_; }             ///< marked-edge diamond outline
    const QBrush& markBrush() const { return markBrush_; }
    const QBrush& matchBrush() const { return matchBrush_; }
    const QBrush& currentBrush() const { return currentBrush_; }
    const QBrush& frameBrush() const { return frameBrush_; }
    QColor background() const { return background_; }
    QColor textColor() const { return text_; }
    const QFont& titleFont() const { return title_; }   ///< op type, bold
    const QFont& detailFont() const { return detail_; } ///< name and shape

private:
    PaintCache();

    QHash<QRgb, QBrush> brushes_;
    QPen edge_, edgeActive_, outline_, group_, frame_, current_, match_, mark_;
    QBrush markBrush_, matchBrush_, currentBrush_, frameBrush_;
    QColor background_, text_;
    QFont title_, detail_;
};

} // namespace bpu::ui
