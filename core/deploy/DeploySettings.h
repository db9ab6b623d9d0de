// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisFwd.h"
#include "core/target/Placement.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace bpu {

class Graph;

/// What the runtime feeds a model input with (hb_compile's `input_type_rt`).
enum class InputRuntimeType { Nv12, Rgb, Bgr, Yuv444, Gray, Featuremap };
/// Normalisation the compiler folds into the BPU model (hb_compile's `norm_type`).
enum class NormType { NoPreprocess, DataMean, DataScale, DataMeanAndScale };
/// Op types `remove_node_type` may strip at the model's start and end (hb_compile, hb_model_info's
/// "Removable node info").
enum class BoundaryOp { Quantize, Dequantize, Transpose, Cast, Reshape, Softmax };
/// Where a deployment came from.
enum class DeployPreset {
    FastPerf,  ///< what `hb_compile --fast-perf` does (the default)
    KeepIoQdq, ///< float model I/O: the CPU quantizes inputs and dequantizes outputs
    Custom,    ///< read from an hb_compile YAML config or a project
};

const char* inputRuntimeTypeName(InputRuntimeType t); ///< "nv12", "rgb", ... as in hb_compile
std::optional<InputRuntimeType> parseInputRuntimeType(const std::string& s);
const char* normTypeName(NormType n); ///< "no_preprocess", "data_mean", ...
std::optional<NormType> parseNormType(const std::string& s);
const char* boundaryOpName(BoundaryOp b); ///< "Quantize", "Dequantize", ... as in remove_node_type
std::optional<BoundaryOp> parseBoundaryOp(const std::string& s);
const char* deployPresetName(DeployPreset p); ///< "fast-perf", "keep-io-qdq", "custom"

/// One model input's runtime settings (hb_compile input_parameters).
struct InputDeploy {
    std::string name; ///< the graph input's name
    InputRuntimeType type = InputRuntimeType::Featuremap;
    NormType norm = NormType::NoPreprocess;
    std::vector<double> mean, scale; ///< per channel, informational (the cost does not depend on the values)
    bool operator==(const InputDeploy&) const = default;
};

/// How the board runs the model: decided by the compile configuration, not by the ONNX file alone. A value
/// per session (like the target); the analysis reads it for the boundary passes, the removable boundary ops
/// and the runtime's I/O. docs/deployment.md.
struct DeploySettings {
    DeployPreset preset = DeployPreset::FastPerf;
    std::string source; ///< where it came from, for the report: "default", a YAML path, "project"
    /// Inputs set explicitly; an input not listed follows the preset: FastPerf takes a 4-D input with C=3
    /// and even H/W as nv12 with the normalisation on the BPU, anything else as a featuremap.
    std::vector<InputDeploy> inputs;
    std::set<BoundaryOp> removeNodeTypes;  ///< removable boundary ops removed at the model's start and end
    std::set<std::string> removeNodeNames; ///< remove_node_name
    std::string march;                     ///< nash-e / nash-m when a config named it, else empty
    std::map<std::string, Precision> nodePrecision; ///< node_info / set_node_data_type (int8 / int16)
    std::map<std::string, Placement> nodePlacement; ///< node_info 'ON': BPU / CPU
    std::optional<Precision> allNodesPrecision;     ///< calibration optimization set_all_nodes_int16
    int64_t inputBatch =
        0; ///< input_parameters.input_batch (0: not given): the batch the model is compiled at
    /// input_parameters.input_shape per input name ("" for a config without input_name: the model's only
    /// input): the shapes the model is imported with (DeployImport.h).
    std::map<std::string, std::vector<int64_t>> inputShapes;
    std::vector<std::string> notes; ///< what the reader ignored or assumed (shown once, in warnings)
    /// Each node or input name the config gives with the key it comes from ("run_on_cpu", "node_info"),
    /// checked against the model once it is imported (checkDeployNames, DeployImport.h). Provenance, like
    /// `notes`: not compared.
    std::vector<std::pair<std::string, std::string>> namedNodes;

    static DeploySettings fastPerf();
    static DeploySettings keepIoQdq();
    /// A preset by its name ("fast-perf", "keep-io-qdq"); nullopt for anything else.
    static std::optional<DeploySettings> fromPresetName(const std::string& name);

    bool removes(BoundaryOp op) const { return removeNodeTypes.count(op) > 0; }
    /// The explicit setting for a graph input, or null when the preset decides. An entry without a name (a
    /// config that leaves input_name empty) stands for a model's only input.
    const InputDeploy* input(const std::string& name) const;
    bool operator==(const DeploySettings& o) const;
};

/// A graph input's settings with the preset applied.
struct ResolvedInput {
    std::string name;
    InputRuntimeType type = InputRuntimeType::Featuremap;
    NormType norm = NormType::NoPreprocess;
    bool fromPreset = true; ///< false when the settings named this input
    /// Whether the CPU quantizes this input per inference: a featuremap input whose Quantize is not removed.
    bool quantizedOnCpu = false;
};

/// `--fast-perf`'s rule for an input with no explicit setting: nv12 for a 4-D NCHW input with C=3 and even,
/// known H and W; a featuremap otherwise.
InputRuntimeType fastPerfInputType(const Graph& g, const std::string& inputName);
ResolvedInput resolveInput(const DeploySettings& d, const Graph& g, const std::string& inputName);
/// Image runtime types arrive as 8-bit pixels: no float quantize on the CPU; the BPU converts the colour
/// format and applies the normalisation.
bool isImageType(InputRuntimeType t);
/// Bytes the runtime hands the BPU per element-grid of an image input of H x W: nv12 1.5, gray 1, rgb/bgr/
/// yuv444 3 (per pixel).
double bytesPerPixel(InputRuntimeType t);

/// One line for the status bar, the CLI and the report, e.g. "hb_compile --fast-perf: 'images' nv12 (mean/
/// scale on the BPU); boundary Quantize/Dequantize/Transpose/Cast/Reshape removed".
std::string describeDeploy(const DeploySettings& d, const Graph& g);
/// A few words for a status bar: "fast-perf: nv12 in, outputs quantized".
std::string describeDeployShort(const DeploySettings& d, const Graph& g);

} // namespace bpu
