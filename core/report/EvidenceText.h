// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace bpu::report {

/// A finding's evidence key as a reader's label: "spills_to_ddr" -> "Spills to DDR",
/// "sram_budget_bytes" -> "SRAM budget". Keys the engine adds later fall back to their words, capitalised,
/// so no snake_case identifier reaches the report's prose.
std::string evidenceLabel(const std::string& key);

/// An evidence value as text, in the unit its key implies: *_bytes and "bytes" in KiB/MiB, *_ratio as a
/// percentage, *_us in microseconds, booleans as yes/no, lists joined (an item that is an object or a list
/// in brackets). Never exponent notation. `total`: how
/// many items a list that holds only the first of them stands for (its `<key>_total`), so the "... N more" of
/// a cut list counts the ones the evidence left out too.
std::string evidenceValue(const std::string& key, const nlohmann::json& value, size_t total = 0);

} // namespace bpu::report
