// SPDX-License-Identifier: MIT
#include "ModelImporter.h"
#include "SourceModel.h"

#include "ExternalData.h"
#include "ImportError.h"
#include "ModelChecks.h"
#include "NameSanitizer.h"
#include "OnnxConvert.h"
#include "ShapeEngine.h"
#include "SingleAssignment.h"
#include "SubgraphScopes.h"
#include "core/util/SafeFile.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/onnx_pb.h>

#include <climits>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>

namespace bpu {

namespace fs = std::filesystem;

namespace {

constexpr FileKind kModelFile{"ONNX file", file_limits::kModel};

/// Over 2 GB first, with the message that says what to do about it (the limit check in OpenUserFile would
/// only say the size).
void checkModelSize(const std::string& path) {
    const uint64_t size = checkUserFile(path, {kModelFile.noun, UINT64_MAX});
    if (size > kModelFile.maxBytes)
        throw ImportError(path, "file is " + std::to_string(size / (1024 * 1024)) +
                                    " MiB; ONNX files over 2 GB cannot be parsed (protobuf limit) - keep the "
                                    "weights in external data");
}

/// The limits every parse sets: a hostile file nests subgraphs to blow the stack.
void limitStream(google::protobuf::io::CodedInputStream& stream) {
    stream.SetTotalBytesLimit(INT_MAX);
    stream.SetRecursionLimit(256);
}

/// What a parsed model must have to be imported at all.
void checkParsed(const std::string& path, const onnx::ModelProto& model) {
    if (model.ir_version() <= 0 && model.opset_import_size() == 0)
        throw ImportError(path, "not an ONNX model (no ir_version and no opset_import)");
    if (!model.has_graph() || model.graph().node_size() == 0)
        throw ImportError(path, "the model has no graph nodes");
}

[[noreturn]] void throwNotProtobuf(const std::string& path) {
    throw ImportError(path, "not an ONNX model (protobuf parse failed: truncated or not a ModelProto)");
}

onnx::ModelProto parse(const std::string& path, const std::string& bytes) {
    onnx::ModelProto model;
    google::protobuf::io::CodedInputStream stream(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                  static_cast<int>(bytes.size()));
    limitStream(stream);
    if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage())
        throwNotProtobuf(path);
    checkParsed(path, model);
    return model;
}

/// Bytes protobuf reads from the file at a time: fits the L2 cache, so they are hot when parsed.
constexpr int kReadBlock = 256 * 1024;

/// Parses the file as it is read, a block at a time: the whole file is never held beside the messages
/// parsed from it. Reading it into one buffer first cost, at 100k nodes, the zero-fill and the copy of 20 MB
/// into memory touched for the first time (~7% of the import, perf) and 20 MB of peak RSS.
onnx::ModelProto parseFile(const std::string& path) {
    try {
        checkModelSize(path);
        const OpenUserFile file(path, kModelFile);
        google::protobuf::io::FileInputStream raw(file.descriptor(), kReadBlock);
        // One byte past the size the file had when opened: enough to see that it grew, and a file another
        // program keeps appending to is never read on and on.
        google::protobuf::io::LimitingInputStream bounded(&raw, static_cast<int64_t>(file.size()) + 1);
        onnx::ModelProto model;
        bool parsed = false;
        int consumed = 0;
        {
            google::protobuf::io::CodedInputStream stream(&bounded);
            limitStream(stream);
            parsed = model.ParseFromCodedStream(&stream) && stream.ConsumedEntireMessage();
            consumed = stream.CurrentPosition();
        }
        if (raw.GetErrno() != 0)
            file.throwReadError(raw.GetErrno());
        // A file that grew is refused for that, whether or not the bytes past its size parse.
        if (static_cast<uint64_t>(consumed) > file.size())
            file.checkReadWhole(static_cast<uint64_t>(consumed));
        if (!parsed)
            throwNotProtobuf(path);
        file.checkReadWhole(static_cast<uint64_t>(consumed));
        checkParsed(path, model);
        return model;
    } catch (const FileError& e) {
        throw ImportError(path, e.problem());
    }
}

void checkDims(const std::string& path, const std::string& what, const std::vector<int64_t>& dims) {
    for (size_t i = 0; i < dims.size(); ++i)
        if (dims[i] < 0)
            throw ImportError(path, what + " has a negative dim (" + std::to_string(dims[i]) + " at axis " +
                                        std::to_string(i) + ")");
    if (!checkedProduct(dims))
        throw ImportError(path, what + ": its element count overflows 64 bits");
}

void checkDeclaredShape(const std::string& path, const onnx::ValueInfoProto& vi) {
    if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape())
        return;
    std::vector<int64_t> known;
    for (const auto& d : vi.type().tensor_type().shape().dim()) {
        if (d.has_dim_value() && d.dim_value() < 0)
            throw ImportError(path, "tensor '" + vi.name() + "' has a negative dim (" +
                                        std::to_string(d.dim_value()) + ")");
        if (d.has_dim_value())
            known.push_back(d.dim_value());
    }
    if (!checkedProduct(known))
        throw ImportError(path, "tensor '" + vi.name() + "': its element count overflows 64 bits");
}

// Counts the nodes in a node's graph attributes (recursively) and vets every external-data location in
// them, as for the main graph: a hostile location inside an If/Loop body is rejected the same way.
int countSubgraphNodes(ExternalResolver& external, const onnx::NodeProto& n, int& graphs) {
    int count = 0;
    auto vetTensor = [&](const onnx::TensorProto& t) {
        if (t.data_location() == onnx::TensorProto::EXTERNAL)
            external.resolve(t);
    };
    for (const auto& a : n.attribute()) {
        auto visit = [&](const onnx::GraphProto& g) {
            ++graphs;
            count += g.node_size();
            for (const auto& init : g.initializer())
                vetTensor(init);
            for (const auto& inner : g.node()) {
                int ignored = 0;
                count += countSubgraphNodes(external, inner, ignored);
                for (const auto& ia : inner.attribute())
                    if (ia.has_t())
                        vetTensor(ia.t());
            }
        };
        if (a.has_g())
            visit(a.g());
        for (const auto& g : a.graphs())
            visit(g);
    }
    return count;
}

Graph buildGraph(const std::string& path, onnx::ModelProto& model, const ImportOptions& opt,
                 bool& batchApplied) {
    Graph g;
    g.path = path;
    g.irVersion = model.ir_version();
    g.producerName = model.producer_name();
    g.producerVersion = model.producer_version();
    for (const auto& op : model.opset_import())
        g.opsets[op.domain() == "ai.onnx" ? std::string{} : op.domain()] = op.version();
    if (g.opsets.empty())
        g.diagnose(DiagCode::NoOpsetImport, "model declares no opset_import; assuming none");

    const auto& graph = model.graph();
    // Every node has at least one output tensor and most tensors are some node's output; initializers and
    // inputs are the rest. An estimate, not a limit: the tables still grow if it is short.
    g.reserve(static_cast<std::size_t>(graph.node_size()),
              static_cast<std::size_t>(graph.node_size()) +
                  static_cast<std::size_t>(graph.initializer_size()) +
                  static_cast<std::size_t>(graph.input_size()));
    ExternalResolver external(path, fs::path(path).parent_path());

    // Initializers: dims, dtype, storage; small embedded values are kept for shape arithmetic.
    int missingWeights = 0;
    for (const auto& init : graph.initializer()) {
        std::vector<int64_t> dims(init.dims().begin(), init.dims().end());
        checkDims(path, "initializer '" + init.name() + "'", dims);
        Tensor& t = g.tensor(g.internTensor(init.name()));
        if (t.isInitializer)
            throw ImportError(path,
                              "initializer '" + init.name() + "' is listed twice (a value has one producer)");
        t.isInitializer = true;
        t.dtype = static_cast<DataType>(init.data_type());
        t.shape = TensorShape(dims);
        t.declaredShape = t.shape;
        if (init.data_location() == onnx::TensorProto::EXTERNAL) {
            ExternalRef ref = external.resolve(init);
            t.externalLocation = ref.location;
            t.storage = ref.present ? WeightStorage::External : WeightStorage::ExternalMissing;
            if (!ref.present)
                ++missingWeights;
        } else {
            t.value = constFromTensorProto(init);
        }
    }
    if (missingWeights > 0)
        g.diagnose(DiagCode::WeightsAbsent,
                   "weights not present: " + std::to_string(missingWeights) +
                       " initializers name an external-data file that is not there (graph-only model; sizes "
                       "come from dims)",
                   DiagSeverity::Note);
    for (const auto& sparse : graph.sparse_initializer()) {
        Tensor& t = g.tensor(g.internTensor(sparse.values().name()));
        if (t.isInitializer)
            throw ImportError(path, "sparse initializer '" + sparse.values().name() +
                                        "' has the name of another initializer (a value has one producer)");
        t.isInitializer = true;
        t.dtype = static_cast<DataType>(sparse.values().data_type());
        std::vector<int64_t> dims(sparse.dims().begin(), sparse.dims().end());
        checkDims(path, "sparse initializer '" + sparse.values().name() + "'", dims);
        t.shape = TensorShape(dims);
        t.declaredShape = t.shape;
    }

    // Model inputs (those that are not initializers), with symbolic dims resolved.
    std::set<std::string> usedOverrides;
    // An input that is also an initializer is legal (its default value) but not flagged isGraphInput: the
    // ids seen here catch the one listed twice either way. Inputs are few.
    std::set<uint32_t> inputIds;
    // A shape for "" (a config without input_name) is the model's only input's.
    std::map<std::string, std::vector<int64_t>> shapes = opt.inputShapes;
    std::map<std::string, std::string> origin = opt.inputShapeOrigin;
    if (auto unnamed = shapes.find(""); unnamed != shapes.end()) {
        std::set<std::string> initNames;
        for (const auto& init : graph.initializer())
            initNames.insert(init.name());
        std::vector<std::string> real;
        for (const auto& vi : graph.input())
            if (!initNames.count(vi.name()))
                real.push_back(vi.name());
        const std::string from = origin.count("") ? origin.at("") : std::string("an input shape");
        if (real.size() != 1)
            throw ImportError(path, from + " names no input and the model has " +
                                        std::to_string(real.size()) + " inputs: name them (input_name)");
        auto dims = unnamed->second;
        shapes.erase(unnamed);
        origin.erase("");
        if (!shapes.count(real[0])) {
            shapes[real[0]] = std::move(dims);
            origin[real[0]] = from;
        }
    }
    // How a message names where a shape came from.
    auto shapeFrom = [&](const std::string& name) {
        const auto o = origin.find(name);
        return o != origin.end() ? o->second + " for '" + name + "'" : "--input-shape " + name;
    };
    // Set when a given shape or batch changes a dim the file fixed: the file's declared shapes of the values
    // after it were traced at the old size (issue 61), so they must not fill what inference leaves open.
    bool declaredStale = false;
    for (const auto& vi : graph.input()) {
        checkDeclaredShape(path, vi);
        TensorId id = g.internTensor(vi.name());
        if (!inputIds.insert(id.value).second)
            throw ImportError(path,
                              "graph input '" + vi.name() + "' is listed twice (a value has one producer)");
        Tensor& t = g.tensor(id);
        if (t.isInitializer)
            continue;
        t.isGraphInput = true;
        if (vi.type().has_tensor_type())
            t.dtype = static_cast<DataType>(vi.type().tensor_type().elem_type());
        t.shape = shapeFromType(vi.type());
        if (auto it = shapes.find(vi.name()); it != shapes.end()) {
            usedOverrides.insert(it->first);
            if (t.shape.rankKnown && t.shape.rank() != it->second.size())
                throw ImportError(path,
                                  shapeFrom(vi.name()) + " has rank " + std::to_string(it->second.size()) +
                                      " but the model's input has rank " + std::to_string(t.shape.rank()));
            checkDims(path, shapeFrom(vi.name()), it->second);
            // A config's shape over one the file fixes wins, as hb_compile's input_shape does; said, with
            // both, so a stale config does not silently re-size the model (issue 64).
            if (origin.count(vi.name()) && t.shape.rankKnown && t.shape.fullyKnown() &&
                t.shape.dims != it->second)
                g.diagnose(DiagCode::DeploymentNote,
                           shapeFrom(vi.name()) + " is " + TensorShape(it->second).toString() +
                               " where the model fixes " + t.shape.toString() +
                               ": the config's shape is used",
                           DiagSeverity::Note);
            t.shape = TensorShape(it->second);
        } else if (opt.forceBatch > 0 && t.shape.rankKnown && t.shape.rank() >= 2) {
            t.shape.dims[0] = opt.forceBatch;
            t.shape.setSymbol(0, {});
            batchApplied = true;
        } else if (t.shape.rankKnown && !t.shape.dims.empty() && t.shape.dims[0] < 0) {
            t.shape.dims[0] = opt.batch;
            t.shape.setSymbol(0, {});
            batchApplied = true;
        }
        for (size_t i = 0; i < t.shape.rank(); ++i)
            if (t.shape.dims[i] < 0)
                g.diagnose(DiagCode::InputDimUnresolved,
                           "input '" + vi.name() + "' dim " + std::to_string(i) +
                               (t.shape.symbol(i).empty() ? "" : " ('" + t.shape.symbol(i) + "')") +
                               " is unresolved: pass --input-shape " + vi.name() + "=...");
        if (!t.shape.rankKnown)
            g.diagnose(DiagCode::InputShapeMissing,
                       "input '" + vi.name() + "' has no shape: pass --input-shape " + vi.name() + "=...");
        auto e = t.shape.elements();
        if (t.shape.fullyKnown() && !e)
            throw ImportError(path, "input '" + vi.name() + "': its element count overflows 64 bits");
        if (const TensorShape declared = shapeFromType(vi.type());
            declared.rankKnown && t.shape.rankKnown && declared.rank() == t.shape.rank())
            for (size_t i = 0; i < declared.rank(); ++i)
                declaredStale =
                    declaredStale || (declared.dims[i] >= 0 && declared.dims[i] != t.shape.dims[i]);
        t.declaredShape = t.shape;
        g.inputs.push_back(id);
    }
    for (const auto& [name, dims] : shapes)
        if (!usedOverrides.count(name)) {
            std::string have;
            for (TensorId in : g.inputs)
                have += (have.empty() ? "" : ", ") + std::string("'") + g.tensor(in).name + "'";
            const auto named = opt.inputNameOrigin.find(name);
            const std::string who = named != opt.inputNameOrigin.end() ? named->second
                                    : origin.count(name)               ? origin.at(name)
                                                                       : std::string("--input-shape");
            throw ImportError(path, who + " names '" + name +
                                        "', which is not a model input (the model has " +
                                        (have.empty() ? std::string("none") : have) + ")");
        }

    // Declared shapes of intermediate values and outputs: used where inference leaves dims open, unless
    // they were declared for another input size (declaredStale).
    for (const auto& vi : graph.value_info()) {
        checkDeclaredShape(path, vi);
        Tensor& t = g.tensor(g.internTensor(vi.name()));
        if (!declaredStale && !t.isGraphInput && !t.isInitializer)
            t.declaredShape = shapeFromType(vi.type());
        if (vi.type().has_tensor_type() && t.dtype == DataType::Undefined)
            t.dtype = static_cast<DataType>(vi.type().tensor_type().elem_type());
    }

    int subgraphNodes = 0;
    SingleAssignment assignment(path, g);
    int index = 0;
    // The model is ours and dropped after the import: each node's proto is moved (swapped) into the graph
    // rather than copied, which at 100k nodes is a whole second copy of the graph's protobuf.
    for (auto& np : *model.mutable_graph()->mutable_node()) {
        Node n;
        n.name = np.name();
        n.opType = np.op_type();
        n.domain = np.domain() == "ai.onnx" ? std::string{} : np.domain();
        for (const auto& in : np.input())
            n.inputs.push_back(in.empty() ? TensorId{} : g.internTensor(in));
        for (const auto& out : np.output()) {
            n.outputs.push_back(out.empty() ? TensorId{} : g.internTensor(out));
            if (n.outputs.back().valid())
                assignment.write(np, index, n.outputs.back());
        }
        n.subgraphNodeCount = countSubgraphNodes(external, np, n.subgraphCount);
        subgraphNodes += n.subgraphNodeCount;
        for (const auto& a : np.attribute())
            if (a.has_t() && a.t().data_location() == onnx::TensorProto::EXTERNAL)
                external.resolve(a.t()); // vets the location; Constant data is never read
        auto proto = std::make_shared<onnx::NodeProto>();
        proto->Swap(&np);
        n.proto = std::move(proto);
        g.addNode(std::move(n));
        ++index;
    }
    if (subgraphNodes > 0)
        g.diagnose(DiagCode::ControlFlowBodies,
                   "model has control-flow subgraphs (If/Loop/Scan) holding " +
                       std::to_string(subgraphNodes) +
                       " nodes; they are shape-inferred with their parent but not analysed node by node");

    for (const auto& vi : graph.output()) {
        checkDeclaredShape(path, vi);
        TensorId id = g.internTensor(vi.name());
        assignment.modelOutput(id);
        Tensor& t = g.tensor(id);
        t.isGraphOutput = true;
        if (!t.declaredShape.rankKnown && !declaredStale)
            t.declaredShape = shapeFromType(vi.type());
        // The element type holds whatever the input size: it stays where inference cannot reach.
        if (vi.type().has_tensor_type() && t.dtype == DataType::Undefined)
            t.dtype = static_cast<DataType>(vi.type().tensor_type().elem_type());
        g.outputs.push_back(id);
    }

    return g;
}

/// Everything after the parse: names, checks, the graph, links, shapes.
Graph importParsed(const std::string& path, onnx::ModelProto model, const ImportOptions& opt) {
    opt.progress.checkCancel();
    // Names reach terminals, labels and reports: escape what could act on them, before anything uses one.
    const int escapedNames = sanitizeNames(model);
    std::vector<std::string> warnings;
    checkModel(path, model, warnings);
    checkSubgraphScopes(path, model.graph());

    bool batchApplied = false;
    Graph g = buildGraph(path, model, opt, batchApplied);
    std::vector<Diagnostic> checks;
    for (auto& w : warnings)
        checks.push_back({DiagSeverity::Warning, DiagCode::OpsetNewer, path, std::move(w)});
    g.diagnostics.insert(g.diagnostics.begin(), checks.begin(), checks.end());
    if (escapedNames > 0)
        g.diagnose(DiagCode::NamesEscaped,
                   std::to_string(escapedNames) +
                       " names in the model hold control characters or invalid UTF-8, or are over 1 KiB: "
                       "they are shown escaped (\\x1b) or cut");
    // Values that nobody produces and that are not inputs/initializers are dangling references.
    try {
        g.link();
    } catch (const std::runtime_error& e) {
        throw ImportError(path, e.what());
    }
    for (const auto& n : g.nodes)
        for (TensorId in : n.inputs)
            if (in.valid()) {
                const Tensor& t = g.tensor(in);
                if (!t.producer.valid() && !t.isInitializer && !t.isGraphInput)
                    g.diagnose(DiagCode::DanglingInput,
                               "node '" + n.name + "' reads '" + t.name +
                                   "', which no node produces and is not a model input or initializer");
            }
    opt.progress(0.1, "shape inference");
    auto progress = opt.progress;
    auto outer = opt.progress.report;
    if (outer)
        progress.report = [outer](double f, std::string_view s) {
            outer(0.1 + 0.9 * f, s);
        };
    ShapeEngine::Report report = ShapeEngine::inferAll(g, progress);
    if (!report.invalid.empty()) {
        const Node& n = g.node(report.invalid.front());
        throw ImportError(path, "node '" + n.name + "' (" + n.opType + "): " + n.shapeError);
    }
    for (const auto& t : g.tensors) {
        if (!t.shape.fullyKnown())
            continue;
        const auto e = t.shape.elements();
        if (e && *e <= kMaxTensorElements)
            continue;
        const std::string shape = t.shape.toString();
        throw ImportError(
            path,
            "tensor '" + t.name + "'" +
                (t.producer.valid() ? " (output of node '" + g.node(t.producer).name + "')" : std::string()) +
                " has shape " + (shape.size() > 200 ? shape.substr(0, 200) + "..." : shape) + ": " +
                (e ? "over 2^40 elements" : "its element count overflows 64 bits") +
                ", beyond the memory of any device");
    }
    if (report.nodesWithoutShapes > 0)
        g.diagnose(DiagCode::ShapesIncomplete,
                   "no complete shape inference for " + std::to_string(report.nodesWithoutShapes) + " nodes");
    if (!report.inconsistent.empty()) {
        // The input shapes the options set do not fit a shape the model fixed: refused, as the equivalent
        // what-if edit is. Without options the file itself is inconsistent: imported, with the warning.
        const Node& n = g.node(report.inconsistent.front());
        std::string cause;
        for (const auto& [name, dims] : opt.inputShapes) {
            const auto o = opt.inputShapeOrigin.find(name);
            cause += (cause.empty() ? "" : ", ") + (o != opt.inputShapeOrigin.end()
                                                        ? o->second + " " + name + "="
                                                        : "--input-shape " + name + "=");
            for (size_t i = 0; i < dims.size(); ++i)
                cause += (i ? "x" : "") + std::to_string(dims[i]);
        }
        if (cause.empty() && batchApplied && opt.forceBatch > 1)
            cause = "input_batch " + std::to_string(opt.forceBatch);
        else if (cause.empty() && batchApplied && opt.batch != 1)
            cause = "--batch " + std::to_string(opt.batch);
        const std::string what = "node '" + n.name + "' (" + n.opType + "): " + n.shapeError;
        if (!cause.empty())
            throw ImportError(path, cause + " breaks " + what +
                                        " (the model was exported for another input shape)");
        g.diagnose(DiagCode::ShapesInconsistent, what + " - the model's own shapes are inconsistent");
    }
    if (report.nodesDataDependent > 0)
        g.diagnose(DiagCode::ShapesDataDependent,
                   std::to_string(report.nodesDataDependent) +
                       " nodes have data-dependent output sizes (downstream of NonZero, "
                       "NonMaxSuppression, ...); their shapes are known only at run time");
    opt.progress(1.0, "done");
    return g;
}

} // namespace

onnx::ModelProto readSourceModel(const std::string& path) {
    onnx::ModelProto model = parseFile(path);
    sanitizeNames(model);
    return model;
}

Graph ModelImporter::load(const std::string& path, const ImportOptions& opt) {
    opt.progress(0.0, "reading");
    return importParsed(path, parseFile(path), opt);
}

Graph ModelImporter::loadBytes(const std::string& path, std::string bytes, const ImportOptions& opt) {
    if (bytes.empty())
        throw ImportError(path, "file is empty");
    if (bytes.size() > file_limits::kModel)
        throw ImportError(path, "ONNX files over 2 GB cannot be parsed (protobuf limit)");
    opt.progress(0.05, "parsing");
    onnx::ModelProto model = parse(path, bytes);
    bytes.clear();
    bytes.shrink_to_fit();
    return importParsed(path, std::move(model), opt);
}

} // namespace bpu
