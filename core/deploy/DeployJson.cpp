// SPDX-License-Identifier: MIT
#include "DeployJson.h"
#include "core/analysis/AnalysisTypes.h"

#include "core/model/ImportOptions.h"

#include "core/model/Graph.h"

#include <stdexcept>

namespace bpu {

namespace {

using json = nlohmann::json;

std::runtime_error bad(const std::string& key, const std::string& what) {
    return std::runtime_error("deployment." + key + ": " + what);
}

std::vector<std::string> stringList(const json& j, const char* key) {
    std::vector<std::string> out;
    if (!j.contains(key))
        return out;
    if (!j[key].is_array())
        throw bad(key, "must be a list of strings");
    for (const auto& v : j[key]) {
        if (!v.is_string())
            throw bad(key, "must be a list of strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

json inputJson(const InputDeploy& in) {
    return {{"name", in.name},
            {"input_type_rt", inputRuntimeTypeName(in.type)},
            {"norm_type", normTypeName(in.norm)},
            {"mean_value", in.mean},
            {"scale_value", in.scale}};
}

std::vector<double> numberList(const json& j, const char* key) {
    std::vector<double> out;
    if (!j.contains(key))
        return out;
    if (!j[key].is_array())
        throw bad(std::string("inputs.") + key, "must be a list of numbers");
    for (const auto& v : j[key]) {
        if (!v.is_number())
            throw bad(std::string("inputs.") + key, "must be a list of numbers");
        out.push_back(v.get<double>());
    }
    return out;
}

} // namespace

json deployToJson(const DeploySettings& d) {
    json j;
    j["preset"] = deployPresetName(d.preset);
    j["source"] = d.source;
    j["inputs"] = json::array();
    for (const auto& in : d.inputs)
        j["inputs"].push_back(inputJson(in));
    j["remove_node_type"] = json::array();
    for (BoundaryOp b : d.removeNodeTypes)
        j["remove_node_type"].push_back(boundaryOpName(b));
    j["remove_node_name"] = d.removeNodeNames;
    if (!d.march.empty())
        j["march"] = d.march;
    json prec = json::object();
    for (const auto& [node, p] : d.nodePrecision)
        prec[node] = precisionName(p);
    j["node_precision"] = prec;
    json place = json::object();
    for (const auto& [node, p] : d.nodePlacement)
        place[node] = placementName(p);
    j["node_placement"] = place;
    if (d.allNodesPrecision)
        j["all_nodes_precision"] = precisionName(*d.allNodesPrecision);
    if (d.inputBatch > 0)
        j["input_batch"] = d.inputBatch;
    if (!d.inputShapes.empty()) {
        json shapes = json::object();
        for (const auto& [name, dims] : d.inputShapes)
            shapes[name] = dims;
        j["input_shapes"] = shapes;
    }
    return j;
}

DeploySettings deployFromJson(const json& j) {
    if (!j.is_object())
        throw std::runtime_error("deployment: must be an object");
    const std::string presetName = j.value("preset", std::string("fast-perf"));
    DeploySettings d;
    if (presetName == "custom")
        d.preset = DeployPreset::Custom;
    else if (auto p = DeploySettings::fromPresetName(presetName))
        d = *p;
    else
        throw bad("preset", "'" + presetName + "' is not fast-perf, keep-io-qdq or custom");
    if (j.contains("source") && j["source"].is_string())
        d.source = j["source"].get<std::string>();
    if (j.contains("inputs")) {
        if (!j["inputs"].is_array())
            throw bad("inputs", "must be a list");
        for (const auto& e : j["inputs"]) {
            if (!e.is_object())
                throw bad("inputs", "each input must be an object");
            InputDeploy in;
            in.name = e.value("name", std::string());
            const std::string type = e.value("input_type_rt", std::string("featuremap"));
            auto t = parseInputRuntimeType(type);
            if (!t)
                throw bad("inputs.input_type_rt",
                          "'" + type + "' is not nv12, rgb, bgr, yuv444, gray or featuremap");
            in.type = *t;
            const std::string norm = e.value("norm_type", std::string("no_preprocess"));
            auto n = parseNormType(norm);
            if (!n)
                throw bad("inputs.norm_type", "'" + norm + "' is not a norm_type");
            in.norm = *n;
            in.mean = numberList(e, "mean_value");
            in.scale = numberList(e, "scale_value");
            d.inputs.push_back(in);
        }
    }
    if (j.contains("remove_node_type")) {
        d.removeNodeTypes.clear();
        for (const auto& s : stringList(j, "remove_node_type")) {
            auto b = parseBoundaryOp(s);
            if (!b)
                throw bad("remove_node_type", "'" + s + "' is not a removable op type");
            d.removeNodeTypes.insert(*b);
        }
    }
    for (const auto& s : stringList(j, "remove_node_name"))
        d.removeNodeNames.insert(s);
    if (j.contains("march") && j["march"].is_string())
        d.march = j["march"].get<std::string>();
    auto precisionOf = [](const json& v, const std::string& key) {
        const std::string s = v.is_string() ? v.get<std::string>() : std::string();
        if (s == "int8")
            return Precision::Int8;
        if (s == "int16")
            return Precision::Int16;
        throw bad(key, "must be int8 or int16");
    };
    if (j.contains("node_precision")) {
        if (!j["node_precision"].is_object())
            throw bad("node_precision", "must map node names to int8/int16");
        for (auto it = j["node_precision"].begin(); it != j["node_precision"].end(); ++it)
            d.nodePrecision[it.key()] = precisionOf(it.value(), "node_precision." + it.key());
    }
    if (j.contains("node_placement")) {
        if (!j["node_placement"].is_object())
            throw bad("node_placement", "must map node names to BPU/CPU");
        for (auto it = j["node_placement"].begin(); it != j["node_placement"].end(); ++it) {
            auto p = it.value().is_string() ? parsePlacement(it.value().get<std::string>()) : std::nullopt;
            if (!p)
                throw bad("node_placement." + it.key(), "must be BPU or CPU");
            d.nodePlacement[it.key()] = *p;
        }
    }
    if (j.contains("all_nodes_precision"))
        d.allNodesPrecision = precisionOf(j["all_nodes_precision"], "all_nodes_precision");
    if (j.contains("input_batch")) {
        const json& b = j["input_batch"];
        if (!b.is_number_integer() || b.get<int64_t>() < 1 || b.get<int64_t>() > kMaxBatch)
            throw bad("input_batch", "must be an integer in 1.." + std::to_string(kMaxBatch));
        d.inputBatch = b.get<int64_t>();
    }
    if (j.contains("input_shapes")) {
        if (!j["input_shapes"].is_object())
            throw bad("input_shapes", "must map input names to shapes");
        for (auto it = j["input_shapes"].begin(); it != j["input_shapes"].end(); ++it) {
            std::vector<int64_t> dims;
            if (!it.value().is_array())
                throw bad("input_shapes." + it.key(), "must be a list of dims");
            for (const auto& v : it.value()) {
                if (!v.is_number_integer())
                    throw bad("input_shapes." + it.key(), "must be a list of positive integers");
                dims.push_back(v.get<int64_t>());
            }
            if (const std::string problem = inputShapeProblem(dims); !problem.empty() || dims.empty())
                throw bad("input_shapes." + it.key(), problem.empty() ? "is empty" : problem);
            d.inputShapes[it.key()] = std::move(dims);
        }
    }
    return d;
}

json resolvedDeployJson(const DeploySettings& d, const Graph& g) {
    json j = deployToJson(d);
    j["description"] = describeDeploy(d, g);
    j["resolved_inputs"] = json::array();
    for (TensorId in : g.inputs) {
        const ResolvedInput r = resolveInput(d, g, g.tensor(in).name);
        j["resolved_inputs"].push_back({{"name", r.name},
                                        {"input_type_rt", inputRuntimeTypeName(r.type)},
                                        {"norm_type", normTypeName(r.norm)},
                                        {"from_preset", r.fromPreset},
                                        {"quantized_on_cpu", r.quantizedOnCpu}});
    }
    if (!d.notes.empty())
        j["notes"] = d.notes;
    return j;
}

} // namespace bpu
