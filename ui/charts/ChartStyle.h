// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisFwd.h"
#include "core/target/Placement.h"

#include <QColor>
#include <QFont>
#include <QString>
#include <QStringList>

class QCustomPlot;

namespace bpu::ui::charts {

/// Colours and fonts shared by every chart: the Okabe-Ito categorical set of ui::palette (colour-blind safe),
/// so a BPU bar has the colour of a BPU node in the graph.
QColor categoryColor(int index);
/// Placement colours in report category order (0 BPU, 1 CPU, 2 folded).
QColor placementColor(int placementIndex);
/// Compute-bound blue, memory-bound vermillion (also told apart by marker shape).
QColor boundColor(Bound b);
/// "Noto Sans CJK SC" when QFontDatabase has it (fonts-noto-cjk), else another CJK face or empty.
QString cjkFontFamily();
/// Families for charts and the report, primary first: a Latin sans face, then cjkFontFamily() so Chinese node
/// names render. The CJK face is not primary: Qt's PDF text map loses its Latin digits for pdftotext.
QStringList uiFontFamilies();
/// A font of `pointSize` over uiFontFamilies(), unhinted and unshaped (no ligatures: extracted PDF text
/// stays searchable; measured widths match at any resolution).
QFont chartFont(double pointSize, bool bold = false, bool italic = false);
/// Axis, grid and text colours from the plot's palette (light or dark theme); call again on PaletteChange.
void applyTheme(QCustomPlot* plot);
/// A long node name cut to `maxChars`, keeping the end where the distinguishing part usually is.
QString elideFront(const QString& s, int maxChars);

} // namespace bpu::ui::charts
