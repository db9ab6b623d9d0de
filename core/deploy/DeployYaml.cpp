// SPDX-License-Identifier: MIT
#include "DeployYaml.h"
#include "core/analysis/AnalysisTypes.h"

#include "core/model/ImportOptions.h"

#include "core/util/SafeFile.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace bpu {

namespace {

// A compile config is a few kilobytes; anything near this is not one.
constexpr std::uintmax_t kMaxConfigBytes = 1 << 20;

// Keys of the vendor's config schema (OE manual, hb_compile) that do not change what the board runs fast or
// slow: read silently. Anything else is noted as ignored.
const std::set<std::string> kSkippedKeys = {"onnx_model",
                                            "caffe_model",
                                            "prototxt",
                                            "working_dir",
                                            "output_model_file_prefix",
                                            "layer_out_dump",
                                            "output_nodes",
                                            "debug_mode",
                                            "input_type_train",
                                            "input_layout_train",
                                            "input_layout_rt",
                                            "input_space_and_range",
                                            "cal_data_dir",
                                            "cal_data_type",
                                            "calibration_type",
                                            "max_percentile",
                                            "per_channel",
                                            "debug",
                                            "jobs",
                                            "advice",
                                            "input_source",
                                            "std_value",
                                            "custom_op",
                                            "custom_op_method",
                                            "op_register_files",
                                            "custom_op_dir",
                                            "hbdk3_compatible_mode"};

// Keys that change how fast the compiled model runs but that the estimate does not model (it assumes
// hb_compile's defaults): one note names those a config sets.
const std::set<std::string> kUnmodelledKeys = {"compile_mode",   "optimize_level",  "core_num",
                                               "balance_factor", "max_time_per_fc", "quant_config"};

std::runtime_error bad(const std::string& name, const std::string& what) {
    return std::runtime_error(name + ": " + what);
}

std::string scalarText(const YAML::Node& n, const std::string& name, const std::string& key) {
    if (n.IsNull())
        return {};
    if (!n.IsScalar())
        throw bad(name, "'" + key + "' must be a string, not a list or mapping");
    return n.Scalar();
}

std::vector<std::string> splitOn(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) {
        const auto b = cur.find_first_not_of(" \t");
        const auto e = cur.find_last_not_of(" \t");
        out.push_back(b == std::string::npos ? std::string() : cur.substr(b, e - b + 1));
    }
    if (!s.empty() && s.back() == sep)
        out.emplace_back();
    return out;
}

std::vector<double> numbers(const std::string& s, const std::string& name, const std::string& key) {
    std::vector<double> out;
    std::istringstream in(s);
    std::string tok;
    while (in >> tok) {
        try {
            size_t used = 0;
            out.push_back(std::stod(tok, &used));
            if (used != tok.size())
                throw std::invalid_argument(tok);
        } catch (const std::exception&) {
            throw bad(name, "'" + key + "' must hold numbers separated by spaces (got '" + tok + "')");
        }
    }
    return out;
}

std::optional<Precision> precisionWord(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (s == "int16")
        return Precision::Int16;
    if (s == "int8")
        return Precision::Int8;
    return std::nullopt;
}

/// The keys any section may hold that the reader acts on: run_on_cpu / run_on_bpu ("node1;node2": those
/// nodes' placement, as node_info's 'ON'), and the performance keys the estimate does not model (collected
/// in `d.notes` as one line by parseDeployYaml). Returns whether `key` was one.
bool readCommonKey(const std::string& section, const std::string& key, const YAML::Node& v,
                   const std::string& name, DeploySettings& d, std::vector<std::string>& unmodelled) {
    if (key == "run_on_cpu" || key == "run_on_bpu") {
        const Placement p = key == "run_on_cpu" ? Placement::CPU : Placement::BPU;
        for (const auto& t : splitOn(scalarText(v, name, section + "." + key), ';'))
            if (!t.empty()) {
                d.nodePlacement[t] = p;
                d.namedNodes.emplace_back(key, t);
            }
        return true;
    }
    if (kUnmodelledKeys.count(key)) {
        unmodelled.push_back(section + "." + key);
        return true;
    }
    return false;
}

void readModelParameters(const YAML::Node& m, const std::string& name, DeploySettings& d,
                         std::vector<std::string>& unmodelled) {
    for (const auto& kv : m) {
        const std::string key = kv.first.as<std::string>();
        const YAML::Node& v = kv.second;
        if (key == "march") {
            d.march = scalarText(v, name, key);
            if (!d.march.empty() && targetForMarch(d.march).empty())
                throw bad(name,
                          "march '" + d.march + "' is not an S100 BPU (nash-e for S100, nash-m for S100P)");
        } else if (key == "remove_node_type") {
            for (const auto& t : splitOn(scalarText(v, name, key), ';')) {
                if (t.empty())
                    continue;
                auto op = parseBoundaryOp(t);
                if (!op)
                    throw bad(name,
                              "remove_node_type: '" + t +
                                  "' is not a removable op type (Quantize, Dequantize, Transpose, Cast, "
                                  "Reshape, Softmax)");
                d.removeNodeTypes.insert(*op);
            }
        } else if (key == "remove_node_name") {
            for (const auto& t : splitOn(scalarText(v, name, key), ';'))
                if (!t.empty()) {
                    d.removeNodeNames.insert(t);
                    d.namedNodes.emplace_back("remove_node_name", t);
                }
        } else if (key == "node_info") {
            if (v.IsNull())
                continue;
            if (!v.IsMap())
                throw bad(name, "node_info must map node names to their settings");
            for (const auto& node : v) {
                const std::string nodeName = node.first.as<std::string>();
                d.namedNodes.emplace_back("node_info", nodeName);
                if (!node.second.IsMap())
                    throw bad(name,
                              "node_info: '" + nodeName + "' must map to settings ('ON', 'InputType', ...)");
                for (const auto& s : node.second) {
                    const std::string k = s.first.as<std::string>();
                    const std::string val = scalarText(s.second, name, "node_info." + nodeName + "." + k);
                    if (k == "ON") {
                        auto p = parsePlacement(val);
                        if (!p || *p == Placement::Folded)
                            throw bad(name, "node_info." + nodeName + ".ON must be BPU or CPU");
                        d.nodePlacement[nodeName] = *p;
                    } else if (k == "InputType" || k == "OutputType") {
                        auto p = precisionWord(val);
                        if (!p)
                            throw bad(name, "node_info." + nodeName + "." + k + " must be int8 or int16");
                        // Either side in int16 runs the node's TAE at the int16 rate.
                        if (*p == Precision::Int16 || !d.nodePrecision.count(nodeName))
                            d.nodePrecision[nodeName] = *p;
                    } else {
                        d.notes.push_back("node_info." + nodeName + "." + k + " ignored");
                    }
                }
            }
        } else if (key == "set_node_data_type") {
            // "name1;name2" (int16) or a mapping {name: int16}
            if (v.IsMap()) {
                for (const auto& node : v) {
                    const std::string nodeName = node.first.as<std::string>();
                    d.namedNodes.emplace_back("set_node_data_type", nodeName);
                    auto p = precisionWord(scalarText(node.second, name, "set_node_data_type." + nodeName));
                    if (!p)
                        throw bad(name, "set_node_data_type." + nodeName + " must be int8 or int16");
                    d.nodePrecision[nodeName] = *p;
                }
            } else {
                for (const auto& t : splitOn(scalarText(v, name, key), ';'))
                    if (!t.empty()) {
                        d.nodePrecision[t] = Precision::Int16;
                        d.namedNodes.emplace_back("set_node_data_type", t);
                    }
            }
        } else if (readCommonKey("model_parameters", key, v, name, d, unmodelled)) {
        } else if (!kSkippedKeys.count(key)) {
            d.notes.push_back("model_parameters." + key + " ignored");
        }
    }
}

/// "1x3x960x960" as hb_compile writes input_shape.
std::vector<int64_t> shapeValue(const std::string& text, const std::string& name) {
    std::vector<int64_t> dims;
    for (const auto& part : splitOn(text, 'x')) {
        int64_t v = 0;
        const auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc{} || p != part.data() + part.size())
            throw bad(name, "input_parameters.input_shape: '" + text + "' is not a shape like 1x3x224x224");
        dims.push_back(v);
    }
    if (dims.empty())
        throw bad(name, "input_parameters.input_shape: empty shape");
    if (const std::string problem = inputShapeProblem(dims); !problem.empty())
        throw bad(name, "input_parameters.input_shape '" + text + "': " + problem);
    return dims;
}

void readInputParameters(const YAML::Node& m, const std::string& name, DeploySettings& d) {
    std::vector<std::string> names, types, norms, means, scales, shapes;
    for (const auto& kv : m) {
        const std::string key = kv.first.as<std::string>();
        const std::string text = scalarText(kv.second, name, key);
        if (key == "input_name") {
            names = splitOn(text, ';');
            for (const auto& n : names)
                if (!n.empty())
                    d.namedNodes.emplace_back("input_name", n);
        } else if (key == "input_type_rt")
            types = splitOn(text, ';');
        else if (key == "norm_type")
            norms = splitOn(text, ';');
        else if (key == "mean_value")
            means = splitOn(text, ';');
        else if (key == "scale_value")
            scales = splitOn(text, ';');
        else if (key == "input_shape")
            shapes = splitOn(text, ';');
        else if (key == "input_batch") {
            int64_t v = 0;
            const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (text.empty() || ec != std::errc{} || p != text.data() + text.size() || v < 1 || v > kMaxBatch)
                throw bad(name, "input_parameters.input_batch: '" + text + "' is not a batch in 1.." +
                                    std::to_string(kMaxBatch));
            d.inputBatch = v;
        } else if (!kSkippedKeys.count(key))
            d.notes.push_back("input_parameters." + key + " ignored");
    }
    // input_shape: one per input, in input_name's order; without input_name, the model's only input.
    if (!shapes.empty()) {
        if (names.empty() && shapes.size() > 1)
            throw bad(name, "input_parameters.input_shape lists " + std::to_string(shapes.size()) +
                                " shapes but input_name names no input");
        if (!names.empty() && shapes.size() != names.size())
            throw bad(name, "input_parameters: " + std::to_string(names.size()) + " input names but " +
                                std::to_string(shapes.size()) + " input_shape values");
        for (size_t i = 0; i < shapes.size(); ++i)
            d.inputShapes[names.empty() ? std::string() : names[i]] = shapeValue(shapes[i], name);
    }
    const size_t count = std::max({names.size(), types.size(), size_t(1)});
    if (names.size() > 1 && types.size() > 1 && names.size() != types.size())
        throw bad(name, "input_parameters: " + std::to_string(names.size()) + " input names but " +
                            std::to_string(types.size()) + " input_type_rt values");
    for (size_t i = 0; i < count; ++i) {
        auto pick = [&](const std::vector<std::string>& v) {
            return v.empty()       ? std::string()
                   : v.size() == 1 ? v.front()
                   : i < v.size()  ? v[i]
                                   : std::string();
        };
        InputDeploy in;
        in.name = i < names.size() ? names[i] : std::string();
        const std::string type = pick(types);
        if (type.empty()) {
            if (types.empty() && names.empty())
                return; // no input_parameters that say anything
            throw bad(name, "input_parameters.input_type_rt is missing for input " + std::to_string(i + 1));
        }
        auto t = parseInputRuntimeType(type);
        if (!t)
            throw bad(name, "input_parameters.input_type_rt: '" + type +
                                "' is not one of nv12, rgb, bgr, yuv444, gray, featuremap");
        in.type = *t;
        const std::string norm = pick(norms);
        if (!norm.empty()) {
            auto n = parseNormType(norm);
            if (!n)
                throw bad(name,
                          "input_parameters.norm_type: '" + norm +
                              "' is not one of no_preprocess, data_mean, data_scale, data_mean_and_scale");
            in.norm = *n;
        }
        in.mean = numbers(pick(means), name, "input_parameters.mean_value");
        in.scale = numbers(pick(scales), name, "input_parameters.scale_value");
        d.inputs.push_back(in);
    }
}

void readCalibrationParameters(const YAML::Node& m, const std::string& name, DeploySettings& d,
                               std::vector<std::string>& unmodelled) {
    for (const auto& kv : m) {
        const std::string key = kv.first.as<std::string>();
        if (key == "optimization") {
            for (const auto& t : splitOn(scalarText(kv.second, name, key), ';')) {
                if (t == "set_all_nodes_int16")
                    d.allNodesPrecision = Precision::Int16;
                else if (!t.empty())
                    d.notes.push_back("calibration_parameters.optimization '" + t + "' ignored");
            }
        } else if (readCommonKey("calibration_parameters", key, kv.second, name, d, unmodelled)) {
        } else if (!kSkippedKeys.count(key)) {
            d.notes.push_back("calibration_parameters." + key + " ignored");
        }
    }
}

} // namespace

std::string targetForMarch(const std::string& march) {
    if (march == "nash-e")
        return "s100";
    if (march == "nash-m")
        return "s100p";
    return {};
}

DeploySettings parseDeployYaml(const std::string& text, const std::string& name) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        // The mark locates the error; the message is yaml-cpp's own words, never the file's bytes.
        throw bad(name, "line " + std::to_string(e.mark.line + 1) + ", column " +
                            std::to_string(e.mark.column + 1) + ": not valid YAML (" + e.msg + ")");
    }
    if (!root.IsMap())
        throw bad(name,
                  "not an hb_compile config (expected model_parameters, input_parameters, ... at the top)");
    DeploySettings d;
    d.preset = DeployPreset::Custom;
    d.source = std::filesystem::path(name).filename().string();
    std::vector<std::string> unmodelled;
    try {
        for (const auto& kv : root) {
            const std::string section = kv.first.as<std::string>();
            const YAML::Node& body = kv.second;
            if (body.IsNull())
                continue;
            const bool known = section == "model_parameters" || section == "input_parameters" ||
                               section == "calibration_parameters" || section == "compiler_parameters" ||
                               section == "custom_op";
            if (known && !body.IsMap())
                throw bad(name, "'" + section + "' must be a mapping of keys");
            if (section == "model_parameters")
                readModelParameters(body, name, d, unmodelled);
            else if (section == "input_parameters")
                readInputParameters(body, name, d);
            else if (section == "calibration_parameters")
                readCalibrationParameters(body, name, d, unmodelled);
            else if (section == "compiler_parameters") {
                for (const auto& c : body) {
                    const std::string key = c.first.as<std::string>();
                    if (!readCommonKey("compiler_parameters", key, c.second, name, d, unmodelled) &&
                        !kSkippedKeys.count(key))
                        d.notes.push_back("compiler_parameters." + key + " ignored");
                }
            } else if (!known) {
                d.notes.push_back("section '" + section + "' ignored");
            }
        }
    } catch (const YAML::Exception& e) {
        throw bad(name, "line " + std::to_string(e.mark.line + 1) + ": unexpected structure (" + e.msg + ")");
    }
    if (!unmodelled.empty()) {
        std::string keys;
        for (const auto& k : unmodelled)
            keys += (keys.empty() ? "" : ", ") + k;
        d.notes.push_back(keys + (unmodelled.size() > 1 ? " change" : " changes") +
                          " how fast the compiled model runs and " + (unmodelled.size() > 1 ? "are" : "is") +
                          " not modelled: the estimate assumes hb_compile's defaults");
    }
    return d;
}

DeploySettings loadDeployYaml(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw bad(path, "cannot open the deployment config (no such file)");
    if (!S_ISREG(st.st_mode))
        throw bad(path, "not a regular file (a deployment config must be a YAML file)");
    if (static_cast<std::uintmax_t>(st.st_size) > kMaxConfigBytes)
        throw bad(path, "larger than 1 MiB: not an hb_compile config");
    // Read through the one safe path: opened non-blocking and checked again on the descriptor, so a FIFO
    // swapped in after the check above is never read.
    return parseDeployYaml(readUserFile(path, {"deployment config", file_limits::kText}), path);
}

DeploySettings loadDeploy(const std::string& presetOrPath) {
    if (auto p = DeploySettings::fromPresetName(presetOrPath))
        return *p;
    const std::string ext = std::filesystem::path(presetOrPath).extension().string();
    if (ext != ".yaml" && ext != ".yml")
        throw std::runtime_error(presetOrPath +
                                 ": --deploy takes fast-perf, keep-io-qdq or an hb_compile .yaml config");
    return loadDeployYaml(presetOrPath);
}

} // namespace bpu
