// SPDX-License-Identifier: MIT
#include "ReportFonts.h"

#include "ui/charts/ChartStyle.h"

namespace bpu::ui {

ReportFonts ReportFonts::make() {
    using charts::chartFont;
    ReportFonts f;
    f.title = chartFont(22, true);
    f.subtitle = chartFont(12);
    f.h1 = chartFont(15, true);
    f.h2 = chartFont(11.5, true);
    f.h3 = chartFont(10, true);
    f.body = chartFont(9);
    f.bold = chartFont(9, true);
    f.italic = chartFont(8.5, false, true);
    f.small = chartFont(7.5);
    f.smallBold = chartFont(7.5, true);
    f.tiny = chartFont(6.5);
    return f;
}

} // namespace bpu::ui
