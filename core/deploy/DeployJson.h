// SPDX-License-Identifier: MIT
#pragma once

#include "DeploySettings.h"

#include <nlohmann/json.hpp>

namespace bpu {

/// The settings as written in a .bpuscope project (and read back by deployFromJson).
nlohmann::json deployToJson(const DeploySettings& d);
/// Throws std::runtime_error naming the key on a malformed value.
DeploySettings deployFromJson(const nlohmann::json& j);
/// For the analysis JSON and the report: the settings plus what they resolve to on this graph (each input's
/// runtime type, whether the CPU quantizes it) and the one-line description.
nlohmann::json resolvedDeployJson(const DeploySettings& d, const Graph& g);

} // namespace bpu
