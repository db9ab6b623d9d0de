// SPDX-License-Identifier: MIT
#include "InfoJson.h"

#include "core/report/DiagnosticsJson.h"

namespace bpu {

nlohmann::json modelJson(const Graph& g, const ModelMetrics& totals) {
    nlohmann::json opsets = nlohmann::json::object();
    for (const auto& [domain, v] : g.opsets)
        opsets[domain.empty() ? "ai.onnx" : domain] = v;
    nlohmann::json hist = nlohmann::json::object();
    for (const auto& [op, count] : totals.opHistogram)
        hist[op] = count;
    std::string producer = g.producerName;
    if (!g.producerVersion.empty())
        producer += (producer.empty() ? "" : " ") + g.producerVersion;
    return {{"path", g.path},
            {"ir_version", g.irVersion},
            {"opsets", opsets},
            {"producer", producer},
            {"nodes", g.nodes.size()},
            {"params", totals.params},
            {"params_from_constant_nodes", totals.paramsFromConstants},
            {"constant_weight_nodes", totals.constantWeights},
            {"macs", totals.macs},
            {"weight_bytes", totals.weightBytes},
            {"op_histogram", hist}};
}

nlohmann::json valueJson(const Graph& g, TensorId id) {
    const Tensor& t = g.tensor(id);
    nlohmann::json dims = nlohmann::json::array();
    for (auto d : t.shape.dims)
        dims.push_back(d);
    return {{"name", t.name},
            {"dtype", std::string(dataTypeName(t.dtype))},
            {"shape", t.shape.rankKnown ? dims : nlohmann::json(nullptr)},
            {"shape_text", t.shape.toString()}};
}

nlohmann::json infoJson(const Graph& g, const ModelMetrics& totals) {
    nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array();
    for (TensorId id : g.inputs)
        inputs.push_back(valueJson(g, id));
    for (TensorId id : g.outputs)
        outputs.push_back(valueJson(g, id));
    nlohmann::json noShapes = nlohmann::json::array();
    for (const auto& n : g.nodes) {
        bool incomplete = false;
        for (TensorId o : n.outputs)
            if (o.valid() && !g.tensor(o).shape.fullyKnown())
                incomplete = true;
        if (incomplete)
            noShapes.push_back({{"node", n.name},
                                {"op", n.opType},
                                {"reason", n.shapeError},
                                {"data_dependent", n.dataDependentOn.valid()}});
    }
    nlohmann::json doc = {{"schema", "bpuscope.info/1"},
                          {"model", modelJson(g, totals)},
                          {"inputs", inputs},
                          {"outputs", outputs},
                          {"nodes_without_shapes", noShapes},
                          {"warnings", diagnosticTexts(g.diagnostics)},
                          {"diagnostics", diagnosticsJson(g.diagnostics)}};
    setCompleteness(doc, completeness(g));
    return doc;
}

} // namespace bpu
