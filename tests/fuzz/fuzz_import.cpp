// SPDX-License-Identifier: MIT
// libFuzzer target: bytes as an ONNX model -> the importer and the shape engine alone (issue 41). No
// session, cost model, findings or report: fuzz_model drives all of those at ~60 executions/s, which in a
// 10-minute run leaves the importer's own checks (single assignment, scopes, attributes, shapes) tried on a
// few tens of thousands of inputs; this one runs them at thousands per second. A bad model must be an
// ImportError; an accepted one must be a graph whose wiring and shapes hold what the rest of BpuScope
// relies on (checked below, cheaply).
#include "FuzzSupport.h"

#include "core/model/ImportError.h"
#include "core/model/ModelImporter.h"

#include <string>
#include <vector>

using namespace bpu;

namespace {

/// What every later stage assumes of an imported graph: ids in range, each value produced by at most the
/// one node the tensor names (single assignment held), consumers that read it, a topological order that
/// holds every node once with producers first, and shapes without a negative known dim or an overflowing
/// element count.
void checkGraph(const Graph& g) {
    const size_t tensors = g.tensors.size(), nodes = g.nodes.size();
    auto tensorOk = [&](TensorId t) {
        return !t.valid() || t.value < tensors;
    };
    for (size_t i = 0; i < nodes; ++i) {
        const Node& n = g.nodes[i];
        for (TensorId in : n.inputs)
            if (!tensorOk(in))
                fuzz::fail("a node input id is out of range");
        for (TensorId out : n.outputs) {
            if (!tensorOk(out))
                fuzz::fail("a node output id is out of range");
            if (out.valid() && g.tensor(out).producer.value != i)
                fuzz::fail("tensor '" + g.tensor(out).name +
                           "' names another producer than the node writing it");
        }
    }
    if (g.topoOrder.size() != nodes)
        fuzz::fail("the topological order does not hold every node once");
    std::vector<char> placed(nodes, 0);
    for (NodeId id : g.topoOrder) {
        if (!id.valid() || id.value >= nodes || placed[id.value])
            fuzz::fail("the topological order repeats or misses a node");
        for (TensorId in : g.node(id).inputs)
            if (in.valid()) {
                const NodeId p = g.tensor(in).producer;
                if (p.valid() && (p.value >= nodes || !placed[p.value]))
                    fuzz::fail("node '" + g.node(id).name + "' comes before the producer of its input");
            }
        placed[id.value] = 1;
    }
    for (const Tensor& t : g.tensors) {
        if (t.producer.valid() && t.producer.value >= nodes)
            fuzz::fail("a producer id is out of range");
        for (NodeId c : t.consumers)
            if (!c.valid() || c.value >= nodes)
                fuzz::fail("a consumer id is out of range");
        if (t.shape.rankKnown && t.shape.fullyKnown() && !t.shape.elements())
            fuzz::fail("tensor '" + t.name + "' has an element count that overflows");
        for (int64_t d : t.shape.dims)
            if (d < -1)
                fuzz::fail("tensor '" + t.name + "' has a dim below -1");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string path = fuzz::scratchDir() + "/fuzz_import.onnx";
    try {
        checkGraph(ModelImporter::loadBytes(path, fuzz::text(data, size)));
    } catch (const ImportError&) {
        // refused with a message: what a bad file should get
    }
    return 0;
}
