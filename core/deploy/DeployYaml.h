// SPDX-License-Identifier: MIT
#pragma once

#include "DeploySettings.h"

#include <string>

namespace bpu {

/// Reads the deployment from a real `hb_compile` YAML config (docs/deployment.md): model_parameters
/// (march, remove_node_type, remove_node_name, node_info, set_node_data_type), input_parameters (input_name,
/// input_type_rt, norm_type, mean_value, scale_value; several inputs separated by ';'),
/// calibration_parameters (optimization: set_all_nodes_int16). Keys of the vendor's schema that do not change
/// the performance (working_dir, cal_data_dir, ...) are skipped; any other key is ignored with a note.
/// Throws std::runtime_error naming the file (and line, or key) on a file that is not a readable regular
/// file, on YAML syntax errors and on values hb_compile would refuse.
DeploySettings loadDeployYaml(const std::string& path);
/// The same from text already in memory; `name` is used in messages.
DeploySettings parseDeployYaml(const std::string& text, const std::string& name);

/// `--deploy` values: a preset name ("fast-perf", "keep-io-qdq") or a path to a .yaml/.yml config.
DeploySettings loadDeploy(const std::string& presetOrPath);
/// The built-in target profile an hb_compile march stands for ("nash-e" -> "s100", "nash-m" -> "s100p"), or
/// empty for an unknown march.
std::string targetForMarch(const std::string& march);

} // namespace bpu
