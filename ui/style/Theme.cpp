// SPDX-License-Identifier: MIT
#include "Theme.h"

#include "Palette.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace bpu::ui::style {

namespace {
ThemeMode gMode = ThemeMode::System;
QPalette& startPalette() {
    static QPalette p = QApplication::palette(); // taken before anything changes it
    return p;
}
} // namespace

QPalette systemPalette() {
    return startPalette();
}

bool isDark(const QPalette& p) {
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2B, 0x2B, 0x2B), base(0x1E, 0x1E, 0x1E), text(0xE6, 0xE6, 0xE6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x40, 0x40, 0x40));
    p.setColor(QPalette::Midlight, QColor(0x38, 0x38, 0x38));
    p.setColor(QPalette::Mid, QColor(0x30, 0x30, 0x30));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, bpu());
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, categorical(4));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

void applyTheme(ThemeMode mode) {
    startPalette(); // remember the system palette before the first change
    gMode = mode;
    const bool dark = mode == ThemeMode::Dark || (mode == ThemeMode::System && isDark(startPalette()));
    if (dark && !isDark(startPalette())) {
        // A light platform style draws a dark palette poorly; Fusion follows the palette.
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
    } else if (dark) {
        QApplication::setPalette(startPalette());
    } else {
        QApplication::setPalette(isDark(startPalette()) ? QApplication::style()->standardPalette()
                                                        : startPalette());
    }
}

ThemeMode themeMode() {
    return gMode;
}

} // namespace bpu::ui::style
