// SPDX-License-Identifier: MIT
#include "DeployImport.h"

#include "core/model/Graph.h"

#include <stdexcept>

namespace bpu {

namespace {
std::string shapeText(const std::vector<int64_t>& dims) {
    std::string s;
    for (size_t i = 0; i < dims.size(); ++i)
        s += (i ? "x" : "") + std::to_string(dims[i]);
    return s;
}
} // namespace

ImportOptions importOptionsWithDeploy(ImportOptions o, bool batchExplicit, const DeploySettings& d,
                                      std::vector<std::string>& notes) {
    const std::string config = d.source.empty() ? std::string("the config") : d.source;
    const std::string from = config + "'s input_shape";
    for (const auto& [name, dims] : d.inputShapes) {
        std::vector<int64_t> shape = dims;
        if (d.inputBatch > 0 && shape.size() >= 2)
            shape[0] = batchExplicit ? o.batch : d.inputBatch;
        // The command line's shape for this input (or, for the only input, any shape it gives) wins.
        const bool given = name.empty() ? !o.inputShapes.empty() : o.inputShapes.count(name) > 0;
        if (given) {
            notes.push_back("--input-shape overrides " + from + " " + (name.empty() ? "" : name + "=") +
                            shapeText(shape));
            continue;
        }
        o.inputShapes[name] = std::move(shape);
        o.inputShapeOrigin[name] = from;
        if (!name.empty())
            o.inputNameOrigin[name] = config + "'s input_name";
    }
    if (d.inputBatch > 0) {
        if (batchExplicit && o.batch != d.inputBatch)
            notes.push_back("--batch " + std::to_string(o.batch) + " overrides the config's input_batch " +
                            std::to_string(d.inputBatch));
        else
            o.forceBatch = d.inputBatch;
    }
    return o;
}

void checkDeployNames(const DeploySettings& d, const Graph& g) {
    const std::string from = d.source.empty() ? std::string("the deployment config") : d.source;
    for (const auto& [key, name] : d.namedNodes) {
        if (key == "input_name") {
            const TensorId t = g.findTensor(name);
            if (t.valid() && g.tensor(t).isGraphInput)
                continue;
            std::string have;
            for (TensorId in : g.inputs)
                have += (have.empty() ? "'" : ", '") + g.tensor(in).name + "'";
            throw std::runtime_error(from + ": input_name names '" + name +
                                     "', which is not an input of the model (it has " +
                                     (have.empty() ? std::string("none") : have) + ")");
        }
        if (!g.findNode(name).valid())
            throw std::runtime_error(from + ": " + key + " names '" + name +
                                     "', which is no node of the model (" + std::to_string(g.nodes.size()) +
                                     " nodes; `bpuscope-cli analyze MODEL --node-info -` lists their names)");
    }
}

} // namespace bpu
