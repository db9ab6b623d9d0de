// SPDX-License-Identifier: MIT
#include "OnnxExport.h"

#include "core/model/Graph.h"
#include "core/model/ImportError.h"
#include "core/model/OnnxConvert.h"
#include "core/model/SourceModel.h"
#include "core/util/SafeFile.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace fs = std::filesystem;

namespace bpu {

namespace {

/// A fresh initializer for a weight whose dims changed: zeros, or ones for a BatchNormalization variance
/// (zeros there would divide by ~0).
onnx::TensorProto reinitialised(const Tensor& t, bool ones) {
    onnx::TensorProto p;
    p.set_name(t.name);
    p.set_data_type(static_cast<int32_t>(t.dtype));
    int64_t n = 1;
    for (int64_t d : t.shape.dims) {
        p.add_dims(d);
        n *= d;
    }
    const size_t bytes =
        static_cast<size_t>(n) * static_cast<size_t>(std::max<int64_t>(1, bytesPerElement(t.dtype)));
    std::string raw(bytes, '\0');
    if (ones && t.dtype == DataType::Float) {
        const float one = 1.0f;
        for (int64_t i = 0; i < n; ++i)
            std::memcpy(raw.data() + i * sizeof(float), &one, sizeof(float));
    }
    p.set_raw_data(std::move(raw));
    return p;
}

/// Whether `t` is a BatchNormalization's variance (its fifth input).
bool isBatchNormVariance(const Graph& g, const Tensor& t) {
    for (NodeId c : t.consumers) {
        const Node& n = g.node(c);
        if (n.opType == "BatchNormalization" && n.inputs.size() > 4 && n.inputs[4] == t.id)
            return true;
    }
    return false;
}

void fillValueInfo(onnx::ValueInfoProto& vi, const Tensor& t, const onnx::ValueInfoProto* source) {
    vi.set_name(t.name);
    if (source && source->has_doc_string())
        vi.set_doc_string(source->doc_string());
    auto* tt = vi.mutable_type()->mutable_tensor_type();
    tt->set_elem_type(static_cast<int32_t>(t.dtype));
    const onnx::TensorShapeProto* srcShape =
        source && source->type().tensor_type().has_shape() ? &source->type().tensor_type().shape() : nullptr;
    if (!t.shape.rankKnown) {
        // Inference stopped before it (a size the export baked in no longer fits): onnx's checker wants a
        // shape on a graph input or output, and the rank is all that still holds of the file's own.
        if (srcShape)
            for (int i = 0; i < srcShape->dim_size(); ++i)
                tt->mutable_shape()->add_dim();
        return;
    }
    auto* shape = tt->mutable_shape();
    for (size_t i = 0; i < t.shape.rank(); ++i) {
        auto* d = shape->add_dim();
        if (t.shape.dims[i] >= 0)
            d->set_dim_value(t.shape.dims[i]);
        else if (srcShape && int(i) < srcShape->dim_size() && srcShape->dim(int(i)).has_dim_param())
            d->set_dim_param(srcShape->dim(int(i)).dim_param());
    }
}

/// The files the external initializers written refer to, relative to the model's folder.
std::set<std::string> externalFiles(const onnx::GraphProto& g) {
    std::set<std::string> out;
    for (const auto& t : g.initializer())
        if (t.data_location() == onnx::TensorProto::EXTERNAL)
            for (const auto& kv : t.external_data())
                if (kv.key() == "location")
                    out.insert(kv.value());
    return out;
}

/// The model as onnx's checker is to see it: an initializer stored in an external file (absent in a
/// graph-only model, or gigabytes) declared as a graph input of its type and dims instead, so the checker
/// does not open the file; shape inference needs its type and dims only (the values that shapes depend on
/// are small and embedded).
onnx::ModelProto withExternalAsInputs(const onnx::ModelProto& m) {
    onnx::ModelProto c = m;
    auto* inits = c.mutable_graph()->mutable_initializer();
    google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
    for (const auto& t : *inits) {
        if (t.data_location() != onnx::TensorProto::EXTERNAL) {
            *kept.Add() = t;
            continue;
        }
        auto* vi = c.mutable_graph()->add_input();
        vi->set_name(t.name());
        auto* tt = vi->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(t.data_type());
        auto* shape = tt->mutable_shape();
        for (int64_t d : t.dims())
            shape->add_dim()->set_dim_value(d);
    }
    inits->Swap(&kept);
    return c;
}

} // namespace

OnnxExportReport exportOnnx(const Graph& g, const std::string& outPath) {
    OnnxExportReport report;
    const std::string& source = g.path;
    if (fs::exists(outPath) && sameFile(outPath, source))
        throw ExportError(outPath + ": is the model being exported (" + source +
                          "); choose another output file");
    onnx::ModelProto src;
    try {
        src = readSourceModel(source);
    } catch (const ImportError& e) {
        throw ExportError(outPath + ": cannot read the source model again: " + e.what());
    }

    onnx::ModelProto out;
    out.set_ir_version(src.ir_version());
    out.mutable_opset_import()->CopyFrom(src.opset_import());
    out.set_producer_name(src.producer_name());
    out.set_producer_version(src.producer_version());
    out.set_domain(src.domain());
    out.set_model_version(src.model_version());
    out.set_doc_string(src.doc_string());
    out.mutable_metadata_props()->CopyFrom(src.metadata_props());
    out.mutable_functions()->CopyFrom(src.functions());
    const onnx::GraphProto& sg = src.graph();
    onnx::GraphProto& og = *out.mutable_graph();
    og.set_name(sg.name());
    og.set_doc_string(sg.doc_string());

    std::map<std::string, const onnx::TensorProto*> srcInit;
    for (const auto& t : sg.initializer())
        srcInit.emplace(t.name(), &t);
    std::map<std::string, const onnx::ValueInfoProto*> srcIo;
    for (const auto* list : {&sg.input(), &sg.output()})
        for (const auto& vi : *list)
            srcIo.emplace(vi.name(), &vi);

    // Inputs, then the initializers, in the graph's order; sparse initializers as they were.
    for (TensorId id : g.inputs) {
        const Tensor& t = g.tensor(id);
        const auto it = srcIo.find(t.name);
        fillValueInfo(*og.add_input(), t, it == srcIo.end() ? nullptr : it->second);
    }
    std::set<std::string> sparse;
    for (const auto& s : sg.sparse_initializer())
        sparse.insert(s.values().name());
    for (const auto& t : g.tensors) {
        if (!t.isInitializer || sparse.count(t.name))
            continue;
        const auto it = srcInit.find(t.name);
        if (it != srcInit.end()) {
            const onnx::TensorProto& p = *it->second;
            const bool sameDims =
                std::equal(p.dims().begin(), p.dims().end(), t.shape.dims.begin(), t.shape.dims.end());
            if (sameDims && p.data_type() == static_cast<int32_t>(t.dtype)) {
                *og.add_initializer() = p;
                continue;
            }
            *og.add_initializer() = reinitialised(t, isBatchNormVariance(g, t));
            report.reinitialised.push_back(t.name);
            continue;
        }
        if (!t.value)
            throw ExportError(outPath + ": initializer '" + t.name +
                              "' is new (an edit made it) and its value is not known");
        onnx::TensorProto p;
        constToTensorProto(*t.value, p);
        p.set_name(t.name);
        *og.add_initializer() = std::move(p);
    }
    og.mutable_sparse_initializer()->CopyFrom(sg.sparse_initializer());

    for (NodeId id : g.topoOrder) {
        const Node& n = g.node(id);
        onnx::NodeProto& p = *og.add_node();
        if (n.proto)
            p = *n.proto;
        p.set_name(n.name);
        p.set_op_type(n.opType);
        p.set_domain(n.domain);
        p.clear_input();
        p.clear_output();
        for (TensorId t : n.inputs)
            p.add_input(t.valid() ? g.tensor(t).name : std::string());
        for (TensorId t : n.outputs)
            p.add_output(t.valid() ? g.tensor(t).name : std::string());
    }
    for (TensorId id : g.outputs) {
        const Tensor& t = g.tensor(id);
        const auto it = srcIo.find(t.name);
        fillValueInfo(*og.add_output(), t, it == srcIo.end() ? nullptr : it->second);
    }

    // onnx's own checks, on exactly what is written.
    if (out.ir_version() > onnx::Version::IR_VERSION) {
        report.warnings.push_back("the model's IR version " + std::to_string(out.ir_version()) +
                                  " is newer than this onnx library knows (" +
                                  std::to_string(onnx::Version::IR_VERSION) +
                                  "): onnx's checker and shape inference were not run on the export");
    } else {
        try {
            const onnx::ModelProto checked = withExternalAsInputs(out);
            onnx::checker::check_model(checked);
            onnx::ModelProto inferred = checked;
            onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(),
                                               onnx::ShapeInferenceOptions(true, 1, false));
        } catch (const std::exception& e) {
            throw ExportError(outPath + ": onnx's checker refuses the exported model: " + e.what());
        }
    }

    // Weights kept outside the file: beside the output too. Never over the source's own files.
    const fs::path srcDir = fs::absolute(source).parent_path();
    const fs::path outDir = fs::absolute(outPath).parent_path();
    if (!fs::is_directory(outDir))
        throw ExportError(outPath + ": the folder '" + outDir.string() + "' does not exist");
    const bool sameDir = fs::equivalent(srcDir, outDir);
    for (const auto& loc : externalFiles(og)) {
        const fs::path from = srcDir / loc;
        if (sameDir || !fs::exists(from))
            continue; // already beside it, or a graph-only model: the reference is kept as it was
        const fs::path to = outDir / loc;
        if (fs::exists(to)) {
            if (sameFile(to.string(), from.string()))
                continue;
            throw ExportError(outPath + ": the weights file '" + to.string() +
                              "' exists already; refusing to overwrite it - export into another folder");
        }
        std::error_code ec;
        fs::create_directories(to.parent_path(), ec);
        if (!fs::copy_file(from, to, ec) || ec)
            throw ExportError(outPath + ": cannot copy the weights file '" + from.string() + "' to '" +
                              to.string() + "': " + ec.message());
        report.copiedFiles.push_back(to.string());
    }

    std::string bytes;
    if (!out.SerializeToString(&bytes))
        throw ExportError(outPath + ": the exported model does not serialize (over 2 GB?)");
    try {
        writeFileAtomically(outPath, bytes);
    } catch (const std::exception& e) {
        throw ExportError(e.what());
    }
    return report;
}

} // namespace bpu
