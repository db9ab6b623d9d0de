// SPDX-License-Identifier: MIT
#include "DeploySettings.h"

#include "core/model/Graph.h"

#include <array>
#include <cstdio>
#include <set>
#include <utility>

namespace bpu {

namespace {

template <typename E, size_t N>
std::optional<E> parseName(const std::array<std::pair<E, const char*>, N>& table, const std::string& s) {
    for (const auto& [e, name] : table)
        if (s == name)
            return e;
    return std::nullopt;
}

template <typename E, size_t N>
const char* nameOf(const std::array<std::pair<E, const char*>, N>& table, E e) {
    for (const auto& [v, name] : table)
        if (v == e)
            return name;
    return "?";
}

constexpr std::array<std::pair<InputRuntimeType, const char*>, 6> kInputTypes{{
    {InputRuntimeType::Nv12, "nv12"},
    {InputRuntimeType::Rgb, "rgb"},
    {InputRuntimeType::Bgr, "bgr"},
    {InputRuntimeType::Yuv444, "yuv444"},
    {InputRuntimeType::Gray, "gray"},
    {InputRuntimeType::Featuremap, "featuremap"},
}};
constexpr std::array<std::pair<NormType, const char*>, 4> kNormTypes{{
    {NormType::NoPreprocess, "no_preprocess"},
    {NormType::DataMean, "data_mean"},
    {NormType::DataScale, "data_scale"},
    {NormType::DataMeanAndScale, "data_mean_and_scale"},
}};
constexpr std::array<std::pair<BoundaryOp, const char*>, 6> kBoundaryOps{{
    {BoundaryOp::Quantize, "Quantize"},
    {BoundaryOp::Dequantize, "Dequantize"},
    {BoundaryOp::Transpose, "Transpose"},
    {BoundaryOp::Cast, "Cast"},
    {BoundaryOp::Reshape, "Reshape"},
    {BoundaryOp::Softmax, "Softmax"},
}};

} // namespace

const char* inputRuntimeTypeName(InputRuntimeType t) {
    return nameOf(kInputTypes, t);
}
std::optional<InputRuntimeType> parseInputRuntimeType(const std::string& s) {
    return parseName(kInputTypes, s);
}
const char* normTypeName(NormType n) {
    return nameOf(kNormTypes, n);
}
std::optional<NormType> parseNormType(const std::string& s) {
    return parseName(kNormTypes, s);
}
const char* boundaryOpName(BoundaryOp b) {
    return nameOf(kBoundaryOps, b);
}
std::optional<BoundaryOp> parseBoundaryOp(const std::string& s) {
    return parseName(kBoundaryOps, s);
}
const char* deployPresetName(DeployPreset p) {
    switch (p) {
    case DeployPreset::FastPerf:
        return "fast-perf";
    case DeployPreset::KeepIoQdq:
        return "keep-io-qdq";
    case DeployPreset::Custom:
        return "custom";
    }
    return "?";
}

DeploySettings DeploySettings::fastPerf() {
    DeploySettings d;
    d.preset = DeployPreset::FastPerf;
    d.source = "default";
    // --fast-perf removes the removable ops at the model's start and end (s100-facts.md, "How a model is
    // compiled"): Softmax is removable only when a config names it.
    d.removeNodeTypes = {BoundaryOp::Quantize, BoundaryOp::Dequantize, BoundaryOp::Transpose,
                         BoundaryOp::Cast, BoundaryOp::Reshape};
    return d;
}

DeploySettings DeploySettings::keepIoQdq() {
    DeploySettings d;
    d.preset = DeployPreset::KeepIoQdq;
    d.source = "keep-io-qdq";
    return d;
}

std::optional<DeploySettings> DeploySettings::fromPresetName(const std::string& name) {
    if (name == "fast-perf" || name == "default")
        return fastPerf();
    if (name == "keep-io-qdq")
        return keepIoQdq();
    return std::nullopt;
}

const InputDeploy* DeploySettings::input(const std::string& name) const {
    for (const auto& i : inputs)
        if (i.name == name)
            return &i;
    if (inputs.size() == 1 && inputs.front().name.empty())
        return &inputs.front();
    return nullptr;
}

bool DeploySettings::operator==(const DeploySettings& o) const {
    // `source` and `notes` say where the settings came from; they do not change what the board runs.
    return preset == o.preset && inputs == o.inputs && removeNodeTypes == o.removeNodeTypes &&
           removeNodeNames == o.removeNodeNames && march == o.march && nodePrecision == o.nodePrecision &&
           nodePlacement == o.nodePlacement && allNodesPrecision == o.allNodesPrecision &&
           inputBatch == o.inputBatch && inputShapes == o.inputShapes;
}

namespace {
/// A 4-D NCHW input of three channels with known H and W: an image to --fast-perf ...
bool imageShaped(const std::vector<int64_t>& dims) {
    return dims.size() == 4 && dims[1] == 3 && dims[2] > 0 && dims[3] > 0;
}
/// ... which takes it as nv12 at even H and W (nv12's chroma is subsampled 2x2).
bool evenHw(const std::vector<int64_t>& dims) {
    return dims[2] % 2 == 0 && dims[3] % 2 == 0;
}
/// An image the preset turned away for an odd H or W only (a drag of the input's H can land on one): the
/// input type, and with it the runtime's input bytes, changed for that reason alone, which the descriptions
/// say.
bool featuremapForOddHw(const DeploySettings& d, const Graph& g, TensorId in, const ResolvedInput& r) {
    const auto& dims = g.tensor(in).shape.dims;
    return r.fromPreset && d.preset == DeployPreset::FastPerf && imageShaped(dims) && !evenHw(dims);
}
} // namespace

InputRuntimeType fastPerfInputType(const Graph& g, const std::string& inputName) {
    const TensorId id = g.findTensor(inputName);
    if (!id.valid())
        return InputRuntimeType::Featuremap;
    const auto& dims = g.tensor(id).shape.dims;
    return imageShaped(dims) && evenHw(dims) ? InputRuntimeType::Nv12 : InputRuntimeType::Featuremap;
}

bool isImageType(InputRuntimeType t) {
    return t != InputRuntimeType::Featuremap;
}

double bytesPerPixel(InputRuntimeType t) {
    switch (t) {
    case InputRuntimeType::Nv12:
        return 1.5; // Y plane + interleaved UV at quarter resolution
    case InputRuntimeType::Gray:
        return 1.0;
    case InputRuntimeType::Rgb:
    case InputRuntimeType::Bgr:
    case InputRuntimeType::Yuv444:
        return 3.0;
    case InputRuntimeType::Featuremap:
        return 0.0; // not an image: sized by its elements
    }
    return 0.0;
}

ResolvedInput resolveInput(const DeploySettings& d, const Graph& g, const std::string& inputName) {
    ResolvedInput r;
    r.name = inputName;
    if (const InputDeploy* set = d.input(inputName)) {
        r.type = set->type;
        r.norm = set->norm;
        r.fromPreset = false;
    } else if (d.preset == DeployPreset::FastPerf) {
        r.type = fastPerfInputType(g, inputName);
        // --fast-perf folds whatever normalisation the config would give into the BPU model.
        r.norm = isImageType(r.type) ? NormType::DataMeanAndScale : NormType::NoPreprocess;
    } else {
        r.type = InputRuntimeType::Featuremap;
        r.norm = NormType::NoPreprocess;
    }
    r.quantizedOnCpu = !isImageType(r.type) && !d.removes(BoundaryOp::Quantize);
    return r;
}

std::string describeDeployShort(const DeploySettings& d, const Graph& g) {
    std::string s = d.preset == DeployPreset::Custom ? (d.source.empty() ? std::string("custom") : d.source)
                                                     : std::string(deployPresetName(d.preset));
    std::set<std::string> types;
    for (TensorId in : g.inputs) {
        const ResolvedInput r = resolveInput(d, g, g.tensor(in).name);
        types.insert(std::string(inputRuntimeTypeName(r.type)) +
                     (featuremapForOddHw(d, g, in, r) ? " (odd H/W)" : ""));
    }
    std::string in;
    for (const auto& t : types)
        in += (in.empty() ? "" : "/") + t;
    if (!in.empty())
        s += ": " + in + " in";
    s += d.removes(BoundaryOp::Dequantize) ? ", outputs quantized" : ", outputs dequantized on the CPU";
    return s;
}

namespace {
/// "123.675 116.28 103.53": as hb_compile's mean_value / scale_value write them.
std::string numbersText(const std::vector<double>& v) {
    std::string out;
    for (double x : v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.6g", x);
        out += (out.empty() ? "" : " ") + std::string(buf);
    }
    return out;
}
} // namespace

std::string describeDeploy(const DeploySettings& d, const Graph& g) {
    std::string s;
    switch (d.preset) {
    case DeployPreset::FastPerf:
        s = "hb_compile --fast-perf";
        break;
    case DeployPreset::KeepIoQdq:
        s = "float model I/O (quantize/dequantize on the CPU)";
        break;
    case DeployPreset::Custom:
        s = d.source.empty() ? std::string("custom") : d.source;
        break;
    }
    std::string ins;
    for (TensorId in : g.inputs) {
        const ResolvedInput r = resolveInput(d, g, g.tensor(in).name);
        if (!ins.empty())
            ins += ", ";
        ins += "'" + r.name + "' " + inputRuntimeTypeName(r.type);
        if (featuremapForOddHw(d, g, in, r))
            ins += " (odd H or W: --fast-perf takes an image as nv12 only at even H and W)";
        const InputDeploy* set = d.input(r.name);
        if (isImageType(r.type) && r.norm != NormType::NoPreprocess && set &&
            (!set->mean.empty() || !set->scale.empty()))
            ins += std::string(" (") + normTypeName(r.norm) + " on the BPU: mean_value '" +
                   numbersText(set->mean) + "', scale_value '" + numbersText(set->scale) + "')";
        else if (isImageType(r.type) && r.norm != NormType::NoPreprocess)
            ins += " (mean/scale on the BPU)";
        else if (r.quantizedOnCpu)
            ins += " (float, quantized on the CPU)";
    }
    if (!ins.empty())
        s += ": " + ins;
    std::string removed;
    for (BoundaryOp b : d.removeNodeTypes)
        removed += std::string(removed.empty() ? "" : "/") + boundaryOpName(b);
    s += removed.empty() ? "; nothing removed at the boundary (outputs dequantized on the CPU)"
                         : "; boundary " + removed + " removed";
    if (!d.removes(BoundaryOp::Dequantize) && !removed.empty())
        s += " (outputs dequantized on the CPU)";
    else if (d.removes(BoundaryOp::Dequantize))
        s += " (outputs left quantized)";
    return s;
}

} // namespace bpu
