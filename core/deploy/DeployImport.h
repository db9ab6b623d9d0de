// SPDX-License-Identifier: MIT
#pragma once

#include "DeploySettings.h"
#include "core/model/ImportOptions.h"

#include <string>
#include <vector>

namespace bpu {

class Graph;

/// The import options a deployment config asks for under those given explicitly (issue 50): its
/// input_shape per input (named by input_name, or the only input) and its input_batch (hb_compile compiles
/// the model at that batch: it replaces a shape's leading dim, and a fixed or symbolic batch of an input
/// without a shape). What the command line gives for the same input or the batch wins, and `notes` says so
/// for each value it overrides. `batchExplicit`: whether `explicitOptions.batch` was given (--batch).
ImportOptions importOptionsWithDeploy(ImportOptions explicitOptions, bool batchExplicit,
                                      const DeploySettings& d, std::vector<std::string>& notes);

/// Checks every name the config gives (input_name, node_info, set_node_data_type, remove_node_name,
/// run_on_cpu, run_on_bpu) against the imported model: the first the model lacks throws std::runtime_error
/// "<config>: <key> names '<name>', which is not ..." saying what the model has. A config written for
/// another export of the model must not be applied to this one in silence.
void checkDeployNames(const DeploySettings& d, const Graph& g);

} // namespace bpu
