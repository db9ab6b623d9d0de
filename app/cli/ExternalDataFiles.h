// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace bpu {
class Graph;
}

namespace bpu::cli {

/// The external-data files the import named (each initializer's location beside the model, present or not):
/// inputs of the run, which no output may replace (CliArgs::refuseOutputsOver).
std::vector<std::string> externalDataFiles(const Graph& g);

} // namespace bpu::cli
