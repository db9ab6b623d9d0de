// SPDX-License-Identifier: MIT
#include "Palette.h"

#include <algorithm>
#include <cmath>

namespace bpu::ui::style {

namespace {
enum Hue { Blue, Orange, BluishGreen, ReddishPurple, SkyBlue, Vermillion, Yellow, Grey };
constexpr QRgb kOkabeIto[] = {0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7, 0x56B4E9, 0xD55E00, 0xF0E442, 0x999999};
QColor hue(Hue h) {
    return QColor::fromRgb(kOkabeIto[h]);
}
} // namespace

QColor categorical(int index) {
    constexpr int n = sizeof(kOkabeIto) / sizeof(kOkabeIto[0]);
    return QColor::fromRgb(kOkabeIto[((index % n) + n) % n]);
}

QColor heat(double t) {
    static const QRgb kStops[] = {0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C,
                                  0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725};
    constexpr int n = sizeof(kStops) / sizeof(kStops[0]);
    if (!(t > 0))
        t = 0; // also NaN
    t = std::min(t, 1.0) * (n - 1);
    const int i = std::min(static_cast<int>(t), n - 2);
    const double f = t - i;
    const QColor a = QColor::fromRgb(kStops[i]), b = QColor::fromRgb(kStops[i + 1]);
    // Rounded to 8 bits per channel so a colour survives the round trip through an interned QBrush.
    auto mix = [f](int x, int y) {
        return static_cast<int>(std::lround(x + (y - x) * f));
    };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

QColor unknown() {
    return QColor::fromRgb(0xC8C8C8);
}

QColor textOn(const QColor& fill) {
    // Relative luminance (sRGB approximation); the threshold favours black text on mid tones.
    const double lum = 0.2126 * fill.redF() + 0.7152 * fill.greenF() + 0.0722 * fill.blueF();
    return lum < 0.45 ? QColor(Qt::white) : QColor(Qt::black);
}

QColor bpu() {
    return hue(Blue);
}
QColor cpu() {
    return hue(Vermillion);
}
QColor folded() {
    return unknown();
}
QColor unknownOp() {
    return hue(Yellow);
}
QColor computeBound() {
    return hue(Blue);
}
QColor memoryBound() {
    return hue(Vermillion);
}
QColor better() {
    return hue(BluishGreen);
}
QColor worse() {
    return hue(Vermillion);
}
QColor unchanged() {
    return QColor::fromRgb(0xE0E0E0);
}
QColor added() {
    return hue(ReddishPurple);
}
QColor unmatched() {
    return hue(SkyBlue);
}
QColor searchMatch() {
    // A deeper yellow than Okabe-Ito's (the unknown-op fill): a search halo must stand out on that fill too.
    return QColor::fromRgb(0xFFD400);
}
QColor qdqMark() {
    return hue(Vermillion);
}
QColor latencyCurve() {
    return hue(Blue);
}
QColor wasteCurve() {
    return hue(Orange);
}

} // namespace bpu::ui::style
