// SPDX-License-Identifier: MIT
#include "ReportFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bpu::report::fmt {

namespace {

std::string printf1(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

} // namespace

std::string fps(double v) {
    return printf1("%.1f", v);
}
std::string ms(double v) {
    return printf1("%.3f", v);
}
std::string us(double v) {
    return printf1("%.1f", v);
}

std::string percent(double ratio) {
    if (std::isnan(ratio))
        return "-";
    return printf1("%.1f%%", ratio * 100.0);
}

std::string signedPercent(double ratio) {
    if (std::isnan(ratio))
        return "-";
    return printf1("%+.1f%%", ratio * 100.0);
}

namespace {

/// `decimals` fixed decimals from `fixedFrom` up; below it two significant digits, so a small but real value
/// never reads as zero. %.2g would switch to exponent notation below 1e-4: the digits are counted by hand.
std::string twoSignificantBelow(double v, double fixedFrom, int decimals) {
    if (v != 0 && std::fabs(v) < fixedFrom && !std::isnan(v))
        decimals = std::min(9, 1 - int(std::floor(std::log10(std::fabs(v)))));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

} // namespace

std::string gainMs(double v) {
    return twoSignificantBelow(v, 0.01, 3);
}

std::string gainUs(double ms) {
    return twoSignificantBelow(ms * 1000.0, 1.0, 1);
}

std::string signedMs(double v) {
    return printf1("%+.3f", v);
}

std::string count(int64_t v) {
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return v < 0 ? "-" + out : out;
}

std::string bytes(int64_t v) {
    const double a = std::fabs(double(v));
    if (a < 1024)
        return std::to_string(v) + " B";
    if (a < 1024.0 * 1024)
        return printf1("%.1f KiB", double(v) / 1024);
    if (a < 1024.0 * 1024 * 1024)
        return printf1("%.1f MiB", double(v) / (1024.0 * 1024));
    return printf1("%.2f GiB", double(v) / (1024.0 * 1024 * 1024));
}

std::string si(double v) {
    const double a = std::fabs(v);
    if (a >= 1e12)
        return printf1("%.2f T", v / 1e12);
    if (a >= 1e9)
        return printf1("%.2f G", v / 1e9);
    if (a >= 1e6)
        return printf1("%.1f M", v / 1e6);
    if (a >= 1e3)
        return printf1("%.1f k", v / 1e3);
    return printf1("%.0f", v);
}

std::string number(double v) {
    if (std::isnan(v))
        return "-";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    // Four significant digits are 1000s and above: whole numbers, separated ("526,600", not "5.266e+05").
    if (std::fabs(v) >= 999.95 || v == std::floor(v))
        return std::fabs(v) < 9.2e18 ? count(static_cast<int64_t>(std::llround(v))) : printf1("%.0f", v);
    // Fixed notation with enough decimals for four significant digits, trailing zeros dropped.
    const int magnitude = int(std::floor(std::log10(std::fabs(v))));
    const int decimals = std::clamp(3 - magnitude, 0, 12);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string out = buf;
    if (out.find('.') != std::string::npos) {
        while (out.back() == '0')
            out.pop_back();
        if (out.back() == '.')
            out.pop_back();
    }
    return out;
}

std::string plural(int64_t n, const std::string& one, const std::string& many) {
    return count(n) + " " + (n == 1 ? one : many.empty() ? one + "s" : many);
}

std::string duration(double ms) {
    if (std::isnan(ms))
        return "-";
    return std::fabs(ms) < 1.0 ? gainUs(ms) + " us" : fmt::ms(ms) + " ms";
}

std::string kib(int64_t bytes) {
    const double k = double(bytes) / 1024.0;
    const int64_t whole = static_cast<int64_t>(std::floor(std::fabs(k) * 10 + 0.5));
    return (k < 0 ? "-" : "") + count(whole / 10) + "." + std::to_string(whole % 10);
}

std::string prose(const std::string& s) {
    static const std::string arrow = " -> ", safe = "\u00a0\u2192\u00a0";
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, arrow.size(), arrow) == 0) {
            out += safe;
            i += arrow.size();
        } else {
            out += s[i++];
        }
    }
    return out;
}

std::string jsonText(const nlohmann::json& j, size_t maxItems) {
    if (j.is_null())
        return "-";
    if (j.is_string())
        return j.get<std::string>();
    if (j.is_boolean())
        return j.get<bool>() ? "yes" : "no";
    if (j.is_number_integer())
        return count(j.get<int64_t>());
    if (j.is_number())
        return number(j.get<double>());
    std::string out;
    size_t i = 0;
    if (j.is_array()) {
        for (const auto& v : j) {
            if (i == maxItems) {
                out += "; ... " + std::to_string(j.size() - maxItems) + " more";
                break;
            }
            out += (i++ ? "; " : "") + jsonText(v, maxItems);
        }
        return out.empty() ? "none" : out;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (i == maxItems) {
            out += ", ...";
            break;
        }
        out += (i++ ? ", " : "") + it.key() + "=" + jsonText(it.value(), maxItems);
    }
    return out;
}

} // namespace bpu::report::fmt
