// SPDX-License-Identifier: MIT
#pragma once

#include "DeploySettings.h"

#include <string>
#include <vector>

namespace bpu {

class Graph;
struct AnalysisOptions;

/// The compile settings a what-if state stands for: the session's deployment with the what-ifs that are
/// hb_compile settings folded in - set_placement as node_info 'ON', set_precision per node as node_info
/// InputType/OutputType, set_precision of the whole model as set_all_nodes_int16 (replacing the
/// deployment's per-node precisions, as it does in the analysis). The fusion what-ifs (fuse/unfuse) are the
/// compiler's own choice and no config key; `notes` says so when the state has them.
DeploySettings compileDeploy(const AnalysisOptions& o, std::vector<std::string>* notes = nullptr);

/// What the YAML names besides the deployment.
struct DeployYamlNames {
    std::string onnxModel;    ///< model_parameters.onnx_model: the model file hb_compile is to read
    std::string march;        ///< nash-e / nash-m; empty: the deployment's own (none written when both empty)
    std::string outputPrefix; ///< output_model_file_prefix; empty: the model file's stem
};

/// `d` for model `g` as an hb_compile YAML config (the keys and spelling of the vendor's schema, docs/
/// deployment.md), which parseDeployYaml reads back to the same settings: every model input with its runtime
/// type resolved (the preset's rule written out), its training type and layout, its shape when the graph
/// knows it, its normalisation and any mean/scale values; remove_node_type / remove_node_name; node_info
/// with each node's placement and precision; set_all_nodes_int16. Names are quoted by the YAML emitter, so
/// any node name reads back as itself (PyYAML included: every string quoted, docs/deployment.md). The
/// calibration data, which the estimate does not know, is a comment saying to fill it in. An image input
/// normalised on the BPU without mean/scale values is written `no_preprocess` when the graph normalises it
/// itself, else refused: throws std::invalid_argument naming the input and what to give, as it does for a
/// name that is not UTF-8.
std::string deployToYaml(const DeploySettings& d, const Graph& g, const DeployYamlNames& names);

} // namespace bpu
