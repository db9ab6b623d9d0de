// SPDX-License-Identifier: MIT
#pragma once

// Shared inputs for the benchmark families: the bundled samples, synthetic graphs and the s100 profile,
// loaded once.

#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <memory>
#include <string>
#include <vector>

namespace bench {

/// File names of the .onnx samples in the samples folder, sorted.
std::vector<std::string> sampleFiles();
/// The imported sample (cached), or null if it does not exist or fails to import.
const bpu::Graph* sample(const std::string& file);
/// makeSyntheticGraph(nodes, 1, towers), cached.
const bpu::Graph& synthetic(int nodes, int towers = 1);
/// The s100 profile, loaded once.
std::shared_ptr<const bpu::TargetProfile> s100();
/// "resnet152.onnx" -> "resnet152"
std::string stem(const std::string& file);
/// `bpuscope-bench --analyse-once=FILE` (ScaleBench runs it as a child): import + Session of FILE once in
/// this fresh process, its CPU milliseconds on standard output; 1 if it failed.
int analyseOnce(const std::string& path);

} // namespace bench
