// SPDX-License-Identifier: MIT
#include "BuryAtExit.h"
#include "Commands.h"
#include "ModelSetup.h"
#include "ResultNotice.h"
#include "core/deploy/DeployImport.h"
#include "core/deploy/DeployYaml.h"

#include "core/io/InfoJson.h"
#include "core/metrics/NodeMetrics.h"
#include "core/model/ExternalDataFiles.h"
#include "core/model/ModelImporter.h"

#include <cstdio>
#include <iostream>
#include <sstream>
#include <vector>

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
    os << "producer:     " << (g.producerName.empty() ? "(none)" : g.producerName + " " + g.producerVersion)
       << "\n";
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
    os << "params:       " << humanCount(m.params) << " (" << m.params << ")";
    if (m.constantWeights > 0) // paddle2onnx keeps weights in Constant nodes: say where they came from
        os << ", " << m.paramsFromConstants << " of them in " << m.constantWeights << " Constant nodes";
    os << "\n";
    os << "MACs:         " << humanCount(m.macs) << " (" << m.macs << "; 1 MAC = one multiply-accumulate)\n";
    os << "other ops:    " << humanCount(m.ops) << "\n";
    os << "weight bytes: " << humanCount(m.weightBytes) << "B\n";
    os << "op histogram:";
    for (const auto& [op, n] : m.opHistogram)
        os << " " << op << "=" << n;
    os << "\n";
    // Inference gaps are listed first; data-dependent sizes (after NMS, NonZero) are expected and can number
    // in the hundreds in a detector, so only a few are shown (--json lists every one).
    std::vector<const Node*> gaps, dynamic;
    for (const auto& n : g.nodes) {
        bool incomplete = false;
        for (TensorId o : n.outputs)
            incomplete |= o.valid() && !g.tensor(o).shape.fullyKnown();
        if (incomplete)
            (n.dataDependentOn.valid() ? dynamic : gaps).push_back(&n);
    }
    os << "nodes without inferred shapes: " << gaps.size() + dynamic.size();
    if (!dynamic.empty())
        os << " (" << dynamic.size() << " with data-dependent sizes, known only at run time)";
    os << "\n";
    auto list = [&os](const std::vector<const Node*>& nodes, size_t limit) {
        for (size_t i = 0; i < nodes.size() && i < limit; ++i)
            os << "  " << nodes[i]->name << " (" << nodes[i]->opType << "): " << nodes[i]->shapeError << "\n";
        if (nodes.size() > limit)
            os << "  ... " << nodes.size() - limit << " more (--json lists all)\n";
    };
    list(gaps, 50);
    list(dynamic, 5);
    return os.str();
}

} // namespace

int runInfo(const CliArgs& args) {
    if (args.positional.size() != 1)
        throw UsageError("info takes exactly one MODEL");
    // A config's input_shape / input_batch shape the model as they do for analyze.
    ModelSetup setup; // the deployment only: info estimates nothing, so no target profile is read
    setup.deploy = loadDeploy(args.get("deploy").value_or("fast-perf"));
    auto owned = std::make_unique<Graph>(ModelImporter::load(args.positional[0], importOptions(args, setup)));
    const Graph& g = *owned;
    checkDeployNames(setup.deploy, g);
    args.refuseOutputsOver(externalDataFiles(g), "an external-data file of the model");
    printDiagnostics(g.diagnostics);
    ModelMetrics totals;
    computeAllMetrics(g, &totals);
    if (auto json = args.get("json"))
        writeOutput(*json, infoJson(g, totals).dump(2) + "\n");
    if (!args.get("json") || !writesToStdout(*args.get("json")))
        std::cout << resultHead(completeness(g), g.diagnostics) << infoText(g, totals);
    buryAtExit(std::move(owned));
    return kOk;
}

} // namespace bpu::cli
