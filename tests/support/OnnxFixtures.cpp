// SPDX-License-Identifier: MIT
#include "OnnxFixtures.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fixtures {

ModelBuilder::ModelBuilder(int opset) {
    model_.set_ir_version(8);
    model_.set_producer_name("bpuscope-tests");
    auto* op = model_.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    model_.mutable_graph()->set_name("fixture");
}

void ModelBuilder::input(const std::string& name, std::vector<int64_t> dims, int dtype, const std::string& sym) {
    auto* vi = graph().add_input();
    vi->set_name(name);
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(dtype);
    auto* shape = tt->mutable_shape();
    for (auto d : dims) {
        auto* dim = shape->add_dim();
        if (d >= 0)
            dim->set_dim_value(d);
        else
            dim->set_dim_param(sym);
    }
}

void ModelBuilder::output(const std::string& name, int dtype) {
    auto* vi = graph().add_output();
    vi->set_name(name);
    vi->mutable_type()->mutable_tensor_type()->set_elem_type(dtype);
}

void ModelBuilder::weight(const std::string& name, std::vector<int64_t> dims, int dtype) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(dtype);
    int64_t n = 1;
    for (auto d : dims) {
        t->add_dims(d);
        n *= d;
    }
    // raw_data must fill the dims exactly (the importer refuses anything else).
    size_t elem = 1;
    switch (dtype) {
    case onnx::TensorProto::FLOAT16:
    case onnx::TensorProto::BFLOAT16:
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::UINT16:
        elem = 2;
        break;
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::UINT32:
        elem = 4;
        break;
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::INT64:
    case onnx::TensorProto::UINT64:
        elem = 8;
        break;
    default:
        break;
    }
    t->set_raw_data(std::string(static_cast<size_t>(n) * elem, '\0'));
}

void ModelBuilder::ints(const std::string& name, std::vector<int64_t> values) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(values.size()));
    for (auto v : values)
        t->add_int64_data(v);
}

void ModelBuilder::externalWeight(const std::string& name, std::vector<int64_t> dims, const std::string& location) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (auto d : dims)
        t->add_dims(d);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* kv = t->add_external_data();
    kv->set_key("location");
    kv->set_value(location);
}

onnx::NodeProto& ModelBuilder::node(const std::string& op, std::vector<std::string> inputs,
                                    std::vector<std::string> outputs, const std::string& name) {
    auto* n = graph().add_node();
    n->set_op_type(op);
    n->set_name(name.empty() ? op + "_" + std::to_string(graph().node_size()) : name);
    for (auto& i : inputs)
        n->add_input(i);
    for (auto& o : outputs)
        n->add_output(o);
    return *n;
}

std::string ModelBuilder::save(const std::string& fileName) const {
    std::string path = tempDir() + "/" + fileName;
    std::ofstream out(path, std::ios::binary);
    model_.SerializeToOstream(&out);
    return path;
}

void setInts(onnx::NodeProto& n, const std::string& key, std::vector<int64_t> v) {
    auto* a = n.add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto x : v)
        a->add_ints(x);
}

void setInt(onnx::NodeProto& n, const std::string& key, int64_t v) {
    auto* a = n.add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
}

void setFloat(onnx::NodeProto& n, const std::string& key, float v) {
    auto* a = n.add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
}

std::string tempDir() {
    static const std::string dir = [] {
        auto d = std::filesystem::temp_directory_path() / ("bpuscope-test-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d.string();
    }();
    return dir;
}

std::string writeBytes(const std::string& fileName, const std::string& bytes) {
    std::string path = tempDir() + "/" + fileName;
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    return path;
}

} // namespace fixtures
