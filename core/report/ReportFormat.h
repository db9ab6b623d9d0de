// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace bpu::report::fmt {

/// How the report prints each kind of number, in one place so every renderer prints the same text.
std::string fps(double v);               ///< "226.4" (one decimal, as `analyze` prints it)
std::string ms(double v);                ///< "4.417" (three decimals)
std::string us(double v);                ///< "123.4"
std::string percent(double ratio);       ///< 0.123 -> "12.3%"; NaN -> "-"
std::string signedPercent(double ratio); ///< "+12.3%" / "-4.0%"
std::string signedMs(double v);          ///< "+0.125" / "-1.350"
/// An estimated gain in ms: three decimals, or two significant digits below 0.01 ms so a small but real
/// gain never reads "0.000" next to a non-zero percentage ("0.00042").
std::string gainMs(double v);
/// An estimated gain given in ms, printed in us by the same rule: one decimal, or two significant digits
/// below 1 us ("0.042"), so a gain under 0.05 us never reads "0.0" next to a non-zero percentage.
std::string gainUs(double ms);
std::string count(int64_t v); ///< "1,234,567"
std::string bytes(int64_t v); ///< "512 B", "12.5 KiB", "25.2 MiB", "1.10 GiB"
std::string si(double v);     ///< "8.70 G", "512 M", "12.0 k"
/// A general number: integers as integers with separators, else 4 significant digits in fixed notation
/// ("0.0001234", "12.35", "526,600"); never exponent notation, which reads as noise in a report.
std::string number(double v);
/// A count with its noun, singular for exactly one: plural(1, "node") = "1 node", plural(3, "node") =
/// "3 nodes"; `many` when the plural is not noun + "s".
std::string plural(int64_t n, const std::string& one, const std::string& many = {});
/// An estimated gain (or any small time) in the unit that reads best: "18.0 us" below 1 ms (gainUs: "0.042
/// us" for a tiny one), "1.234 ms" above.
std::string duration(double ms);
/// Kibibytes with one decimal and separators ("1,234.5"), for byte columns that must share one unit.
std::string kib(int64_t bytes);
/// Running text from the engine made safe to wrap: " -> " becomes a no-break arrow ("a\u00a0\u2192\u00a0b")
/// so the line breaker can neither split the arrow nor leave it dangling at a line end.
std::string prose(const std::string& s);
/// A JSON scalar or small structure as one line of text (strings unquoted, objects as "k=v, k=v").
std::string jsonText(const nlohmann::json& j, size_t maxItems = 8);

} // namespace bpu::report::fmt
