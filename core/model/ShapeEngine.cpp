// SPDX-License-Identifier: MIT
#include "ShapeEngine.h"

#include "ConstantFolder.h"
#include "GuardedSchemas.h"
#include "NodeChecks.h"
#include "OnnxConvert.h"
#include "ShapeRules.h"
#include "core/util/PrintableText.h"

#include <onnx/common/version.h>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace bpu {

namespace {

bool sameValue(const std::shared_ptr<const ConstValue>& a, const std::shared_ptr<const ConstValue>& b) {
    if (a == b)
        return true;
    if (!a || !b)
        return false;
    return a->dtype == b->dtype && a->dims == b->dims && a->ints == b->ints && a->floats == b->floats;
}

std::string opsetDomain(const std::string& d) {
    return d == "ai.onnx" ? std::string{} : d;
}

int opsetFor(const Graph& g, const std::string& domain) {
    auto it = g.opsets.find(opsetDomain(domain));
    if (it == g.opsets.end() && domain.empty())
        it = g.opsets.find("ai.onnx");
    return it == g.opsets.end() ? 0 : static_cast<int>(it->second);
}

// Every value name a node's graph attributes read, at any depth (a superset of what they take from the
// enclosing scope: names the bodies define themselves are looked up too, and simply not found outside).
void bodyReads(const onnx::NodeProto& n, std::unordered_set<std::string>& names) {
    for (const auto& a : n.attribute()) {
        auto visit = [&](const onnx::GraphProto& body) {
            for (const auto& inner : body.node()) {
                for (const auto& in : inner.input())
                    names.insert(in);
                bodyReads(inner, names);
            }
            for (const auto& out : body.output())
                names.insert(out.name()); // a body may pass an outer value straight through
        };
        if (a.has_g())
            visit(a.g());
        for (const auto& body : a.graphs())
            visit(body);
    }
}

// The types of the enclosing-scope values a node's bodies read: only those, so a graph of thousands of
// If nodes is inferred in linear time, not each If against every tensor of the model.
std::unordered_map<std::string, onnx::TypeProto> scopeTypes(const Graph& g, const onnx::NodeProto& n) {
    std::unordered_set<std::string> names;
    bodyReads(n, names);
    std::unordered_map<std::string, onnx::TypeProto> types;
    for (const auto& name : names) {
        const TensorId id = g.findTensor(name);
        if (!id.valid())
            continue;
        const Tensor& t = g.tensor(id);
        if (t.dtype != DataType::Undefined)
            fillType(types[t.name], static_cast<int32_t>(t.dtype), t.shape);
    }
    return types;
}

// onnx's GraphInferenceContext keeps a reference to the model-local functions map: it must outlive every
// inference (a default-argument temporary dangled, and a body op without a schema read it: SIGSEGV).
const onnx::shape_inference::ModelLocalFunctionsMap& noLocalFunctions() {
    static const onnx::shape_inference::ModelLocalFunctionsMap empty;
    return empty;
}

// Where onnx leaves a dim open but the file declared it, trust the file (as onnx's own merge does).
TensorShape mergeDeclared(TensorShape inferred, const TensorShape& declared) {
    if (!inferred.rankKnown)
        return declared;
    if (declared.rankKnown && declared.rank() == inferred.rank())
        for (size_t i = 0; i < inferred.rank(); ++i)
            if (inferred.dims[i] < 0 && declared.dims[i] >= 0) {
                inferred.dims[i] = declared.dims[i];
                inferred.setSymbol(i, {});
            }
    return inferred;
}

// Ops whose output size is decided by the input values: no static inference can know it.
bool sizeDependsOnData(const Node& n) {
    const std::string& op = n.opType;
    return op == "NonZero" || op == "NonMaxSuppression" || op == "Unique" || op == "Compress" ||
           op == "StringSplit" || (op == "StringNormalizer" && n.attributeText("stopwords").size() > 2);
}

} // namespace

bool ShapeEngine::inferNode(Graph& g, NodeId id) {
    Node& n = g.node(id);
    n.shapeError.clear();
    n.dataDependentOn = n.domain.empty() && sizeDependsOnData(n) ? id : NodeId{};
    for (TensorId in : n.inputs)
        if (in.valid() && !n.dataDependentOn.valid() && g.tensor(in).producer.valid())
            n.dataDependentOn = g.node(g.tensor(in).producer).dataDependentOn;

    // Snapshot outputs to detect change.
    struct Old {
        DataType dtype;
        TensorShape shape;
        std::shared_ptr<const ConstValue> value;
    };
    std::vector<Old> old;
    for (TensorId o : n.outputs)
        old.push_back(o.valid() ? Old{g.tensor(o).dtype, g.tensor(o).shape, g.tensor(o).value} : Old{});

    auto folded = ConstantFolder::fold(g, n);

    std::unordered_map<std::string, onnx::TypeProto> inputTypes;
    std::unordered_map<std::string, onnx::TensorProto> inputData;
    for (TensorId in : n.inputs) {
        if (!in.valid())
            continue;
        const Tensor& t = g.tensor(in);
        // A tensor can feed several inputs of one node (Mul(x, x), Slice(d, c, c1, c1)): fill it once, since
        // both helpers append (a second fill would double the rank or the data).
        if (t.dtype != DataType::Undefined && !inputTypes.count(t.name))
            fillType(inputTypes[t.name], static_cast<int32_t>(t.dtype), t.shape);
        if (t.value && !inputData.count(t.name))
            constToTensorProto(*t.value, inputData[t.name]);
    }
    std::unordered_map<std::string, onnx::TypeProto*> typePtrs;
    for (auto& [k, v] : inputTypes)
        typePtrs[k] = &v;
    std::unordered_map<std::string, const onnx::TensorProto*> dataPtrs;
    for (auto& [k, v] : inputData)
        dataPtrs[k] = &v;

    std::vector<onnx::TypeProto> outTypes(n.outputs.size());
    bool inferred = false;
    const int opset = opsetFor(g, n.domain);
    const GuardedSchemas& registry = GuardedSchemas::instance();
    const auto* schema = registry.GetSchema(n.opType, opset, opsetDomain(n.domain));
    n.shapeInvalid = false;
    if (n.proto) {
        // What onnx's inference takes for granted about the inputs (a conv weight of the input's rank):
        // checked here, so the node is named as invalid rather than failing somewhere inside onnx.
        std::string problem = inputProblem(
            n.opType, opsetDomain(n.domain), attributesOf(*n.proto),
            [&](size_t i) -> const onnx::TypeProto* {
                if (i >= n.inputs.size() || !n.inputs[i].valid())
                    return nullptr;
                auto it = inputTypes.find(g.tensor(n.inputs[i]).name);
                return it == inputTypes.end() ? nullptr : &it->second;
            },
            n.inputs.size());
        if (!problem.empty()) {
            n.shapeError = problem;
            n.shapeInvalid = true;
            schema = nullptr;
        }
    }
    if (n.shapeInvalid) {
        // shapeError says why; the outputs keep only what the file declared
    } else if (!schema) {
        n.shapeError = "operator " + (n.domain.empty() ? std::string{} : n.domain + ".") + n.opType +
                       " (opset " + std::to_string(opset) + ") is not known to onnx " +
                       ONNX_NAMESPACE::LAST_RELEASE_VERSION;
    } else if (n.proto) {
        // onnx's context takes the node mutable only to infer (and annotate) graph attributes: a node with
        // subgraphs gets a private copy, any other is read in place (a copy per node per inference was a
        // fifth of the import at 100k nodes). The proto itself says whether it has one, not
        // Node::subgraphCount: that is set by the importer, and an edited proto may not match it, while a
        // proto shared between session copies must never be written.
        const bool hasSubgraphs =
            std::any_of(n.proto->attribute().begin(), n.proto->attribute().end(),
                        [](const onnx::AttributeProto& a) { return a.has_g() || a.graphs_size() > 0; });
        std::optional<onnx::NodeProto> copy;
        if (hasSubgraphs)
            copy.emplace(*n.proto);
        onnx::NodeProto& proto = copy ? *copy : const_cast<onnx::NodeProto&>(*n.proto);
        std::unordered_map<std::string, onnx::TypeProto> scope;
        std::unordered_map<std::string, onnx::TypeProto*> scopePtrs;
        std::unique_ptr<onnx::shape_inference::GraphInferenceContext> graphCtx;
        std::unordered_map<std::string, int> opsetMap;
        for (const auto& [d, v] : g.opsets)
            opsetMap[d] = static_cast<int>(v);
        if (hasSubgraphs) {
            scope = scopeTypes(g, proto);
            for (auto& [k, v] : scope)
                scopePtrs[k] = &v;
            graphCtx = std::make_unique<onnx::shape_inference::GraphInferenceContext>(
                scopePtrs, opsetMap, nullptr, noLocalFunctions(), &registry);
        }
        try {
            onnx::shape_inference::InferenceContextImpl ctx(proto, typePtrs, dataPtrs, {}, nullptr,
                                                            graphCtx.get());
            if (schema->has_type_and_shape_inference_function()) {
                schema->GetTypeAndShapeInferenceFunction()(ctx);
                inferred = true;
            } else if (schema->HasFunction() && schema->GetFunction()) {
                onnx::shape_inference::InferShapeForFunctionNode(*schema->GetFunction(), opsetMap, &registry,
                                                                 ctx);
                inferred = true;
            } else {
                n.shapeError = "onnx has no shape inference for " + n.opType;
            }
            if (inferred)
                for (size_t i = 0; i < outTypes.size() && i < ctx.allOutputTypes_.size(); ++i)
                    outTypes[i] = ctx.allOutputTypes_[i];
        } catch (const std::exception& e) {
            n.shapeError = printable(e.what(), 2048); // onnx quotes names and values from the file
            inferred = false;
        }
    }

    bool changed = false;
    bool explained = false;
    for (size_t i = 0; i < n.outputs.size(); ++i) {
        TensorId o = n.outputs[i];
        if (!o.valid())
            continue;
        Tensor& t = g.tensor(o);
        t.value = i < folded.size() ? folded[i] : nullptr;
        if (inferred && outTypes[i].has_tensor_type()) {
            const auto& tt = outTypes[i].tensor_type();
            if (tt.elem_type())
                t.dtype = static_cast<DataType>(tt.elem_type());
            t.shape = shapeFromType(outTypes[i]);
            ShapeRules::refine(g, n, i, t.shape);
            t.shape = mergeDeclared(t.shape, t.declaredShape);
        } else {
            t.shape = t.declaredShape;
        }
        if (t.value) {
            // A folded value pins the shape (and dtype) exactly, even where onnx stayed vague.
            t.shape = TensorShape(t.value->dims);
            if (t.dtype == DataType::Undefined)
                t.dtype = t.value->dtype;
        }
        if (!t.shape.fullyKnown() && n.dataDependentOn.valid() && !explained) {
            explained = true;
            n.shapeError = "output '" + t.name + "' (" + t.shape.toString() +
                           ") has a data-dependent size (" +
                           (n.dataDependentOn == id ? "the output size of " + n.opType + " depends on values"
                                                    : "downstream of " + g.node(n.dataDependentOn).opType +
                                                          " '" + g.node(n.dataDependentOn).name + "'") +
                           ")";
        } else if (inferred && n.shapeError.empty() && !t.shape.fullyKnown())
            n.shapeError = "output '" + t.name + "' shape not fully inferred (" + t.shape.toString() + ")";
        const Old& was = old[i];
        if (was.dtype != t.dtype || !(was.shape == t.shape) || !sameValue(was.value, t.value))
            changed = true;
    }
    if (std::string why = ShapeRules::elementCountMismatch(g, n); !why.empty() && !n.shapeInvalid)
        n.shapeError = why; // the shape stays as onnx wrote it; the error says it cannot be right
    return changed;
}

ShapeEngine::Report ShapeEngine::summarize(const Graph& g) {
    Report r;
    for (const auto& n : g.nodes) {
        bool incomplete = false;
        for (TensorId o : n.outputs)
            if (o.valid() && !g.tensor(o).shape.fullyKnown())
                incomplete = true;
        if (incomplete)
            ++(n.dataDependentOn.valid() ? r.nodesDataDependent : r.nodesWithoutShapes);
        if (!n.shapeError.empty())
            r.failed.push_back(n.id);
        if (n.shapeInvalid)
            r.invalid.push_back(n.id);
        if (!ShapeRules::elementCountMismatch(g, n).empty())
            r.inconsistent.push_back(n.id);
    }
    return r;
}

ShapeEngine::Report ShapeEngine::inferAll(Graph& g, const Progress& progress) {
    const size_t total = g.topoOrder.size();
    for (size_t i = 0; i < total; ++i) {
        if ((i & 63) == 0) {
            progress.checkCancel();
            progress(total ? double(i) / double(total) : 1.0, "shape inference");
        }
        inferNode(g, g.topoOrder[i]);
    }
    return summarize(g);
}

std::vector<NodeId> ShapeEngine::reinfer(Graph& g, const std::vector<TensorId>& changed,
                                         const std::vector<NodeId>& touched,
                                         const std::function<void(NodeId)>& beforeInfer) {
    const auto& pos = g.topoIndex();
    // Min-heap on topological position: a node is re-inferred only after every changed producer upstream.
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> work;
    std::unordered_set<uint32_t> queued;
    auto push = [&](NodeId n) {
        if (queued.insert(n.value).second)
            work.push(pos[n.value]);
    };
    for (TensorId t : changed)
        for (NodeId c : g.tensor(t).consumers)
            push(c);
    for (NodeId n : touched)
        push(n);
    std::vector<NodeId> visited;
    while (!work.empty()) {
        NodeId n = g.topoOrder[work.top()];
        work.pop();
        visited.push_back(n);
        if (beforeInfer)
            beforeInfer(n);
        if (inferNode(g, n))
            for (TensorId o : g.node(n).outputs)
                if (o.valid())
                    for (NodeId c : g.tensor(o).consumers)
                        push(c);
    }
    return visited;
}

} // namespace bpu
