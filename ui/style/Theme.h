// SPDX-License-Identifier: MIT
#pragma once

#include <QPalette>

namespace bpu::ui::style {

/// Light or dark, following the system's palette unless the user chose (View > Dark mode).
enum class ThemeMode { System, Light, Dark };

/// The palette the platform gave the application at start (the "system" one).
QPalette systemPalette();
/// True when `p` is a dark palette (light text on a dark window).
bool isDark(const QPalette& p);
/// A dark palette for the Fusion style, with Okabe-Ito blue as the highlight.
QPalette darkPalette();
/// Sets the application's palette for `mode`; every widget gets a PaletteChange and repaints.
void applyTheme(ThemeMode mode);
/// The mode in force.
ThemeMode themeMode();

} // namespace bpu::ui::style
