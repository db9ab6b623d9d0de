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
std::string count(int64_t v); ///< "1,234,567"
std::string bytes(int64_t v); ///< "512 B", "12.5 KiB", "25.2 MiB", "1.10 GiB"
std::string si(double v);     ///< "8.70 G", "512 M", "12.0 k"
std::string number(double v); ///< a general number: integers as integers, else 4 significant digits
/// A JSON scalar or small structure as one line of text (strings unquoted, objects as "k=v, k=v").
std::string jsonText(const nlohmann::json& j, size_t maxItems = 8);

} // namespace bpu::report::fmt
