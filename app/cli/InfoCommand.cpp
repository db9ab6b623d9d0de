// SPDX-License-Identifier: MIT
#include "Commands.h"

#include "core/io/InfoJson.h"
#include "core/metrics/NodeMetrics.h"
#include "core/model/ModelImporter.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace bpu::cli {

namespace {

std::string humanCount(int64_t v) {
    char buf[64];
    if (v >= 1'000'000'000)
        std::snprintf(buf, sizeof buf, "%.3f G", double(v) / 1e9);
    else if (v >= 1'000'000)
        std::snprintf(buf, sizeof buf, "%.3f M", double(v) / 1e6);
    else if (v >= 1'000)
        std::snprintf(buf, sizeof buf, "%.3f K", double(v) / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    return buf;
}

std::string infoText(const Graph& g, const ModelMetrics& m) {
    std::ostringstream os;
    os << "model:        " << g.path << "\n";
    os << "producer:     " << (g.producerName.empty() ? "(none)" : g.producerName + " " + g.producerVersion) << "\n";
    os << "ir_version:   " << g.irVersion << "\n";
    os << "opsets:      ";
    for (const auto& [d, v] : g.opsets)
        os << " " << (d.empty() ? "ai.onnx" : d) << "=" << v;
    os << "\n";
    for (TensorId id : g.inputs)
        os << "input:        " << g.tensor(id).name << " " << dataTypeName(g.tensor(id).dtype) << " "
           << g.tensor(id).shape.toString() << "\n";
    for (TensorId id : g.outputs)
        os << "output:       " << g.tensor(id).name << " " << dataTypeName(g.tensor(id).dtype) << " "
           << g.tensor(id).shape.toString() << "\n";
    os << "nodes:        " << g.nodes.size() << "\n";
    os << "params:       " << humanCount(m.params) << " (" << m.params << ")\n";
    os << "MACs:         " << humanCount(m.macs) << " (" << m.macs << "; 1 MAC = one multiply-accumulate)\n";
    os << "other ops:    " << humanCount(m.ops) << "\n";
    os << "weight bytes: " << humanCount(m.weightBytes) << "B\n";
    os << "op histogram:";
    for (const auto& [op, n] : m.opHistogram)
        os << " " << op << "=" << n;
    os << "\n";
    int noShape = 0;
    for (const auto& n : g.nodes)
        for (TensorId o : n.outputs)
            if (o.valid() && !g.tensor(o).shape.fullyKnown()) {
                ++noShape;
                break;
            }
    os << "nodes without inferred shapes: " << noShape << "\n";
    for (const auto& n : g.nodes) {
        bool incomplete = false;
        for (TensorId o : n.outputs)
            incomplete |= o.valid() && !g.tensor(o).shape.fullyKnown();
        if (incomplete)
            os << "  " << n.name << " (" << n.opType << "): " << n.shapeError << "\n";
    }
    for (const auto& w : g.warnings)
        os << "warning: " << w << "\n";
    return os.str();
}

} // namespace

int runInfo(const CliArgs& args) {
    if (args.positional.size() != 1)
        throw UsageError("info takes exactly one MODEL");
    Graph g = ModelImporter::load(args.positional[0], args.importOptions());
    ModelMetrics totals;
    computeAllMetrics(g, &totals);
    if (auto json = args.get("json"))
        writeOutput(*json, infoJson(g, totals).dump(2) + "\n");
    if (!args.get("json") || *args.get("json") != "-")
        std::cout << infoText(g, totals);
    return kOk;
}

} // namespace bpu::cli
