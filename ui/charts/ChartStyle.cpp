// SPDX-License-Identifier: MIT
#include "ChartStyle.h"

#include "QCustomPlotInclude.h"
#include "core/analysis/AnalysisTypes.h"
#include "ui/style/Palette.h"

#include <QFontDatabase>

namespace bpu::ui::charts {

QColor categoryColor(int index) {
    return style::categorical(index);
}

QColor placementColor(int placementIndex) {
    // BPU blue, CPU orange, folded bluish green: the first three Okabe-Ito hues.
    return style::categorical(placementIndex);
}

QColor boundColor(Bound b) {
    switch (b) {
    case Bound::Compute:
        return style::computeBound();
    case Bound::Memory:
        return style::memoryBound();
    case Bound::None:
        break;
    }
    return style::unknown();
}

QString cjkFontFamily() {
    static const QString family = [] {
        const QStringList all = QFontDatabase::families();
        for (const char* name :
             {"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei"})
            if (all.contains(QLatin1String(name)))
                return QString::fromLatin1(name);
        return QString();
    }();
    return family;
}

QStringList uiFontFamilies() {
    static const QStringList list = [] {
        QStringList out;
        const QStringList all = QFontDatabase::families();
        for (const char* name : {"DejaVu Sans", "Noto Sans", "Liberation Sans", "Nimbus Sans"})
            if (all.contains(QLatin1String(name))) {
                out << QString::fromLatin1(name);
                break;
            }
        if (out.isEmpty())
            out << QFontDatabase::systemFont(QFontDatabase::GeneralFont).family();
        if (!cjkFontFamily().isEmpty())
            out << cjkFontFamily();
        return out;
    }();
    return list;
}

QFont chartFont(double pointSize, bool bold, bool italic) {
    QFont f;
    f.setFamilies(uiFontFamilies());
    f.setPointSizeF(pointSize);
    f.setBold(bold);
    f.setItalic(italic);
    f.setHintingPreference(QFont::PreferNoHinting);
    f.setStyleStrategy(QFont::PreferNoShaping);
    return f;
}

void applyTheme(QCustomPlot* plot) {
    const QPalette pal = plot->palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor base = pal.color(QPalette::Base);
    QColor grid = text;
    grid.setAlphaF(0.18);
    plot->setBackground(base);
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text, 1));
        axis->setTickPen(QPen(text, 1));
        axis->setSubTickPen(QPen(text, 1));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        axis->grid()->setSubGridPen(QPen(grid, 0.5, Qt::DotLine));
    }
    if (plot->legend) {
        plot->legend->setTextColor(text);
        plot->legend->setBrush(base);
        plot->legend->setBorderPen(QPen(grid));
    }
}

QString elideFront(const QString& s, int maxChars) {
    if (s.size() <= maxChars)
        return s;
    return QStringLiteral("\u2026") + s.right(maxChars - 1);
}

} // namespace bpu::ui::charts
