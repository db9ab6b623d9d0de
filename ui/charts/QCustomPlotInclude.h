// SPDX-License-Identifier: MIT
// Include <qcustomplot.h> through this header. bpuscope_ui builds with QT_NO_FOREACH, which leaves Qt's
// `foreach` undefined, but two inline templates of qcustomplot.h (QCustomPlot::plottableAt / itemAt) still
// use it. Give them a range-for stand-in for the duration of the include only.
#pragma once

#ifdef QT_NO_FOREACH
#ifndef foreach
#define BPUSCOPE_QCP_FOREACH_SHIM
#define foreach(variable, container) for (variable : container)
#endif
#endif

#include <qcustomplot.h>

#ifdef BPUSCOPE_QCP_FOREACH_SHIM
#undef foreach
#undef BPUSCOPE_QCP_FOREACH_SHIM
#endif
