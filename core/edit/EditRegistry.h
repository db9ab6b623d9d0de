// SPDX-License-Identifier: MIT
#pragma once

#include "EditFwd.h"

#include <nlohmann/json.hpp>

#include <span>
#include <string_view>

namespace bpu {

/// One kind of edit: its op name in the JSON vocabulary and the parser that builds it (throws EditError for
/// a missing or mistyped field).
struct EditKind {
    std::string_view op;
    EditPtr (*fromJson)(const nlohmann::json& edit);
};

/// Every edit kind, sorted by op. Adding a kind is one line in EditRegistry.cpp.
std::span<const EditKind> editKinds();
/// The kind of an op name, or null.
const EditKind* findEditKind(std::string_view op);

} // namespace bpu
