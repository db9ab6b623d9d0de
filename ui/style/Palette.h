// SPDX-License-Identifier: MIT
// Every colour the workbench and the PDF report draw with, in one place: Okabe and Ito's colour-blind-safe
// categorical set (Okabe & Ito 2008, "Color Universal Design"), viridis for heat, and the roles they play.
#pragma once

#include <QColor>

namespace bpu::ui::style {

/// Okabe-Ito hue `index` (blue, orange, bluish green, reddish purple, sky blue, vermillion, yellow, grey;
/// black is left out: it is the text colour), cycling.
QColor categorical(int index);
/// viridis (van der Walt & Smith, matplotlib) at t in [0, 1] (clamped; NaN is 0).
QColor heat(double t);
/// Neutral grey for "no value" / "does not apply".
QColor unknown();
/// Black or white, whichever reads better on `fill`.
QColor textOn(const QColor& fill);

// Roles.
QColor bpu();          ///< a node on the BPU (Okabe-Ito blue)
QColor cpu();          ///< a node on the CPU (vermillion)
QColor folded();       ///< folded into a neighbour at compile time (light grey)
QColor unknownOp();    ///< an op the operator table does not know (yellow)
QColor computeBound(); ///< compute-bound (blue), as on the roofline chart
QColor memoryBound();  ///< memory-bound (vermillion)
QColor better();       ///< a delta that helps (bluish green)
QColor worse();        ///< a delta that hurts (vermillion)
QColor unchanged();    ///< no change (light grey)
QColor added();        ///< a node the baseline has none of (reddish purple): no delta, new
QColor unmatched();    ///< a node the other side of a comparison has no match for (sky blue)
QColor searchMatch();  ///< search hits and the minimap's view frame (yellow)
QColor qdqMark();      ///< Q/DQ boundary markers on edges (vermillion)
QColor latencyCurve(); ///< the drag editor's latency curve (blue)
QColor wasteCurve();   ///< the drag editor's padding-waste curve (orange)

} // namespace bpu::ui::style
