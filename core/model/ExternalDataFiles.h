// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace bpu {

class Graph;

/// The external-data files the import named (each initializer's location beside the model, present or not):
/// inputs of a run, which no output may replace (the CLI's CliArgs::refuseOutputsOver, the workbench's
/// checkedOutputPath).
std::vector<std::string> externalDataFiles(const Graph& g);

} // namespace bpu
