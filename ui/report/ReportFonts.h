// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>

namespace bpu::ui {

/// The fonts of the PDF report, all over charts::uiFontFamilies(): a Latin sans face with "Noto Sans CJK SC"
/// (fonts-noto-cjk) as the fallback that renders Chinese node names.
struct ReportFonts {
    QFont title, subtitle, h1, h2, h3, body, bold, italic, small, smallBold, tiny;

    static ReportFonts make();
};

} // namespace bpu::ui
