// SPDX-License-Identifier: MIT
#include "DeployYamlWriter.h"
#include "core/analysis/AnalysisTypes.h"

#include "core/analysis/AnalysisOptions.h"
#include "core/analysis/InputNormalization.h"
#include "core/model/Graph.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace bpu {

namespace {

std::string joined(const std::vector<std::string>& parts, char sep) {
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i)
        s += (i ? std::string(1, sep) : std::string()) + parts[i];
    return s;
}

/// Text for a mean/scale value: the shortest that reads back to the same double (a config's own values
/// round-trip exactly: a typed decimal needs at most 15 digits), unless that takes more - a value computed
/// from the model's float32 constants by move_input_normalization, which holds no more than float precision:
/// 123.675, not 123.67500364780426.
std::string number(double v) {
    char buf[40];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    if (ec != std::errc{})
        return std::to_string(v);
    std::string text(buf, end);
    size_t digits = 0;
    for (char c : text.substr(0, text.find('e')))
        digits += c >= '1' && c <= '9' ? 1 : (c == '0' && digits ? 1 : 0);
    if (digits <= 15)
        return text;
    std::snprintf(buf, sizeof buf, "%.7g", v);
    return buf;
}

std::string numbers(const std::vector<double>& v) {
    std::vector<std::string> parts;
    for (double x : v)
        parts.push_back(number(x));
    return joined(parts, ' ');
}

/// The layout the model was trained with, as hb_compile asks for it: NHWC when a 4-D input has its 1 or 3
/// channels last and not at dim 1, NCHW otherwise (ONNX's convention).
std::string trainLayout(const TensorShape& s) {
    if (s.rankKnown && s.dims.size() == 4) {
        const auto small = [](int64_t d) {
            return d == 1 || d == 3;
        };
        if (small(s.dims[3]) && !small(s.dims[1]))
            return "NHWC";
    }
    return "NCHW";
}

/// What the model was trained on for a runtime type: the image itself for rgb/bgr/gray; an nv12 or yuv444
/// runtime input converts to the training colour order, which the ONNX file does not say (rgb assumed, as
/// torchvision's and the model zoo's are).
const char* trainType(InputRuntimeType t) {
    switch (t) {
    case InputRuntimeType::Rgb:
    case InputRuntimeType::Nv12:
    case InputRuntimeType::Yuv444:
        return "rgb";
    case InputRuntimeType::Bgr:
        return "bgr";
    case InputRuntimeType::Gray:
        return "gray";
    case InputRuntimeType::Featuremap:
        return "featuremap";
    }
    return "featuremap";
}

/// The next code point of UTF-8 `s` at `i` (advanced past it), or -1 for a malformed sequence or a Unicode
/// noncharacter (U+FFFE, U+FDD0, ...: yaml-cpp's emitter writes those as U+FFFD, another name).
int32_t nextCodePoint(const std::string& s, size_t& i) {
    const auto byte = [&](size_t k) {
        return static_cast<unsigned char>(s[k]);
    };
    const unsigned char c = byte(i++);
    if (c < 0x80)
        return c;
    const int extra = c >= 0xF5 ? -1 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 ? 1 : -1;
    if (extra < 0)
        return -1;
    int32_t cp = c & (0x3F >> extra);
    for (int k = 0; k < extra; ++k) {
        if (i >= s.size() || (byte(i) & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (byte(i++) & 0x3F);
    }
    static constexpr int32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || (cp & 0xFFFE) == 0xFFFE ||
        (cp >= 0xFDD0 && cp <= 0xFDEF))
        return -1; // overlong, out of range, a surrogate or a noncharacter
    return cp;
}

/// What a single-quoted YAML scalar carries as written for PyYAML (YAML 1.1): its printable set (reader.py)
/// less the line breaks, which a flow scalar folds (\n, NEL, LS, PS).
bool plainInSingleQuotes(int32_t cp) {
    return cp == 0x9 || (cp >= 0x20 && cp <= 0x7E) ||
           (cp >= 0xA0 && cp <= 0xD7FF && cp != 0x2028 && cp != 0x2029) || (cp >= 0xE000 && cp != 0xFEFF) ||
           (cp >= 0x10000 && cp <= 0x10FFFF);
}

/// `text` as a quoted YAML scalar that PyYAML (YAML 1.1, hb_compile's reader) and yaml-cpp both read as the
/// same string (issue 64): plain, `on` is a bool to PyYAML, `010` an int, `2001-12-14` a date, `~` null.
/// Single quotes, as the vendor's examples write names; double quotes with every non-ASCII character
/// escaped when the text holds one PyYAML would reject or fold raw (yaml-cpp 0.7 writes a control byte raw
/// inside single quotes, and DEL or U+FFFE raw even inside double quotes unless non-ASCII is escaped).
/// Throws std::invalid_argument for text that is not UTF-8: a YAML file cannot name it.
void emitText(YAML::Emitter& out, const std::string& text) {
    bool single = true;
    for (size_t i = 0; i < text.size();) {
        const int32_t cp = nextCodePoint(text, i);
        if (cp < 0)
            throw std::invalid_argument("'" + text +
                                        "' is not UTF-8 text, or holds a Unicode noncharacter: a YAML config "
                                        "cannot name it");
        single = single && plainInSingleQuotes(cp);
    }
    if (single) {
        out << YAML::SingleQuoted << text;
        return;
    }
    out.SetOutputCharset(YAML::EscapeNonAscii);
    out << YAML::DoubleQuoted << text;
    out.SetOutputCharset(YAML::EmitNonAscii);
}

/// A key of the vendor's schema that YAML 1.1 would not read as written (`ON` is a bool to PyYAML).
void emitKey(YAML::Emitter& out, const std::string& key) {
    out << YAML::Key;
    emitText(out, key);
    out << YAML::Value;
}

/// A name a ';'-separated list holds (input_name, remove_node_name): hb_compile splits the list on ';', so a
/// name holding one names two things. Throws std::invalid_argument naming it and the key.
const std::string& listed(const std::string& name, const char* key) {
    if (name.find(';') != std::string::npos)
        throw std::invalid_argument("'" + name + "' holds ';', which separates the names of " + key +
                                    ": hb_compile would read two names; rename it in the model");
    return name;
}

/// `key: 'text'`: a key of the vendor's schema (plain: none reads as anything but itself) and a quoted value.
void entry(YAML::Emitter& out, const char* key, const std::string& text) {
    out << YAML::Key << key << YAML::Value;
    emitText(out, text);
}

std::string shapeText(const std::vector<int64_t>& dims) {
    std::vector<std::string> parts;
    for (int64_t d : dims)
        parts.push_back(std::to_string(d));
    return joined(parts, 'x');
}

} // namespace

DeploySettings compileDeploy(const AnalysisOptions& o, std::vector<std::string>* notes) {
    DeploySettings d = o.deploy;
    if (o.modelPrecision) {
        // The whole model at one precision replaces the config's per-node precisions (DeployPass).
        d.allNodesPrecision = *o.modelPrecision;
        d.nodePrecision.clear();
    }
    for (const auto& [name, p] : o.precisionOverrides)
        d.nodePrecision[name] = p;
    for (const auto& [name, p] : o.placementOverrides)
        if (p == Placement::BPU || p == Placement::CPU)
            d.nodePlacement[name] = p;
    if (notes && (!o.fuse || !o.unfusedHeads.empty() || !o.fusedHeads.empty()))
        notes->push_back(
            "the fusion what-ifs (fuse / unfuse) are the compiler's own choice, not a config key: "
            "hb_compile fuses as it does by default");
    return d;
}

std::string deployToYaml(const DeploySettings& d, const Graph& g, const DeployYamlNames& names) {
    YAML::Emitter out;
    out.SetIndent(2);
    out << YAML::BeginMap;

    // model_parameters
    out << YAML::Key << "model_parameters" << YAML::Value << YAML::BeginMap;
    entry(out, "onnx_model", names.onnxModel);
    const std::string march = names.march.empty() ? d.march : names.march;
    if (!march.empty())
        entry(out, "march", march);
    entry(out, "working_dir", "model_output");
    entry(out, "output_model_file_prefix",
          names.outputPrefix.empty() ? std::filesystem::path(names.onnxModel).stem().string()
                                     : names.outputPrefix);
    if (!d.removeNodeTypes.empty()) {
        std::vector<std::string> types;
        for (BoundaryOp b : d.removeNodeTypes)
            types.emplace_back(boundaryOpName(b));
        entry(out, "remove_node_type", joined(types, ';'));
    }
    if (!d.removeNodeNames.empty()) {
        std::vector<std::string> removed;
        for (const std::string& n : d.removeNodeNames)
            removed.push_back(listed(n, "remove_node_name"));
        entry(out, "remove_node_name", joined(removed, ';'));
    }
    // One node_info entry per node the settings name: its placement and its precision.
    std::map<std::string, std::pair<std::optional<Placement>, std::optional<Precision>>> info;
    for (const auto& [name, p] : d.nodePlacement)
        info[name].first = p;
    for (const auto& [name, p] : d.nodePrecision)
        info[name].second = p;
    if (!info.empty()) {
        out << YAML::Key << "node_info" << YAML::Value << YAML::BeginMap;
        for (const auto& [name, set] : info) {
            emitKey(out, name);
            out << YAML::BeginMap;
            if (set.first) {
                emitKey(out, "ON");
                emitText(out, placementName(*set.first));
            }
            if (set.second) {
                const char* p = *set.second == Precision::Int16 ? "int16" : "int8";
                emitKey(out, "InputType");
                emitText(out, p);
                emitKey(out, "OutputType");
                emitText(out, p);
            }
            out << YAML::EndMap;
        }
        out << YAML::EndMap;
    }
    out << YAML::EndMap;

    // input_parameters: every model input, the preset's rule written out (a config has no preset).
    std::vector<std::string> inNames, rt, train, layout, norm, mean, scale, shapes, carried;
    bool shapesKnown = true;
    const std::vector<InputNormalization> inGraph = InputNormalization::find(g);
    for (TensorId id : g.inputs) {
        const Tensor& t = g.tensor(id);
        const ResolvedInput r = resolveInput(d, g, t.name);
        inNames.push_back(listed(t.name, "input_name"));
        rt.emplace_back(inputRuntimeTypeName(r.type));
        train.emplace_back(trainType(r.type));
        layout.push_back(trainLayout(t.shape));
        const InputDeploy* set = d.input(t.name);
        mean.push_back(set ? numbers(set->mean) : std::string());
        scale.push_back(set ? numbers(set->scale) : std::string());
        const bool wantsMean = r.norm == NormType::DataMean || r.norm == NormType::DataMeanAndScale;
        const bool wantsScale = r.norm == NormType::DataScale || r.norm == NormType::DataMeanAndScale;
        NormType written = r.norm;
        if ((wantsMean && mean.back().empty()) || (wantsScale && scale.back().empty())) {
            // Issue 64: a config that normalises without values does not compile, and one that drops the
            // normalisation feeds raw pixels to a model trained on normalised ones. The model's own
            // normalisation, when the graph carries it, needs none in the config; else the user gives it.
            const auto own = std::find_if(inGraph.begin(), inGraph.end(),
                                          [&](const InputNormalization& n) { return n.input == id; });
            if (own == inGraph.end())
                throw std::invalid_argument(
                    "input '" + t.name + "' runs as " + inputRuntimeTypeName(r.type) + " with norm_type " +
                    normTypeName(r.norm) +
                    ", but its mean_value / scale_value are not known and the graph "
                    "does not normalise it: load a deployment config that has them (--deploy CONFIG.yaml; "
                    "Model > Deployment in the GUI) with mean_value / scale_value, or norm_type "
                    "no_preprocess "
                    "for a model trained on raw pixels, or the input as a featuremap");
            written = NormType::NoPreprocess;
            mean.back().clear();
            scale.back().clear();
            carried.push_back("'" + t.name + "' (from '" + g.node(own->nodes.front()).name + "')");
        }
        norm.emplace_back(normTypeName(written));
        if (t.shape.rankKnown && t.shape.fullyKnown())
            shapes.push_back(shapeText(t.shape.dims));
        else
            shapesKnown = false;
    }
    if (!inNames.empty()) {
        out << YAML::Key << "input_parameters" << YAML::Value << YAML::BeginMap;
        const std::pair<const char*, std::vector<std::string>*> texts[] = {
            {"input_name", &inNames},
            {"input_type_rt", &rt},
            {"input_type_train", &train},
            {"input_layout_train", &layout},
            {"input_shape", shapesKnown ? &shapes : nullptr},
            {"norm_type", &norm}};
        for (const auto& [key, values] : texts)
            if (values)
                entry(out, key, joined(*values, ';'));
        if (!carried.empty())
            out << YAML::Comment("no_preprocess: the model normalises " + joined(carried, ',') +
                                 " itself, in the graph");
        auto anyText = [](const std::vector<std::string>& v) {
            for (const auto& s : v)
                if (!s.empty())
                    return true;
            return false;
        };
        if (anyText(mean))
            out << YAML::Key << "mean_value" << YAML::Value << joined(mean, ';');
        if (anyText(scale))
            out << YAML::Key << "scale_value" << YAML::Value << joined(scale, ';');
        out << YAML::EndMap;
    }

    // calibration_parameters: the data is the user's; the precision of the whole model is a setting.
    out << YAML::Key << "calibration_parameters" << YAML::Value << YAML::BeginMap;
    entry(out, "cal_data_dir", "./calibration_data");
    out << YAML::Comment("fill in: preprocessed calibration samples");
    if (d.allNodesPrecision == Precision::Int16)
        entry(out, "optimization", "set_all_nodes_int16");
    out << YAML::EndMap;

    out << YAML::EndMap;
    return std::string(
               "# hb_compile config written by BpuScope " BPUSCOPE_VERSION
               ": the deployment its estimate used. Compile options\n"
               "# it leaves out (compile_mode, optimize_level, ...) are hb_compile's defaults, as the "
               "estimate assumes.\n") +
           out.c_str() + "\n";
}

} // namespace bpu
