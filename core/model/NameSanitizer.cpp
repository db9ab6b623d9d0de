// SPDX-License-Identifier: MIT
#include "NameSanitizer.h"

#include "core/util/PrintableText.h"

#include <onnx/onnx_pb.h>

namespace bpu {

namespace {

class Sanitizer {
public:
    int changed = 0;

    void fix(std::string* s) {
        if (s->size() <= 1024 && isPrintable(*s))
            return; // the usual case: nothing to copy
        *s = printableName(*s);
        ++changed;
    }

    void type(onnx::TypeProto& t) {
        if (t.has_tensor_type() && t.tensor_type().has_shape())
            for (auto& d : *t.mutable_tensor_type()->mutable_shape()->mutable_dim())
                if (d.has_dim_param())
                    fix(d.mutable_dim_param());
        if (t.has_sequence_type())
            type(*t.mutable_sequence_type()->mutable_elem_type());
        if (t.has_optional_type())
            type(*t.mutable_optional_type()->mutable_elem_type());
        if (t.has_map_type())
            type(*t.mutable_map_type()->mutable_value_type());
    }

    void value(onnx::ValueInfoProto& v) {
        fix(v.mutable_name());
        if (v.has_type())
            type(*v.mutable_type());
    }

    void tensor(onnx::TensorProto& t) {
        fix(t.mutable_name());
        for (auto& kv : *t.mutable_external_data())
            if (kv.key() != "location") // a location is vetted as it is, byte for byte
                fix(kv.mutable_value());
    }

    void node(onnx::NodeProto& n) {
        fix(n.mutable_name());
        fix(n.mutable_op_type());
        fix(n.mutable_domain());
        for (auto& s : *n.mutable_input())
            fix(&s);
        for (auto& s : *n.mutable_output())
            fix(&s);
        for (auto& a : *n.mutable_attribute()) {
            fix(a.mutable_name());
            if (a.has_s())
                fix(a.mutable_s());
            for (auto& s : *a.mutable_strings())
                fix(&s);
            if (a.has_t())
                tensor(*a.mutable_t());
            for (auto& t : *a.mutable_tensors())
                tensor(t);
            if (a.has_g())
                graph(*a.mutable_g());
            for (auto& g : *a.mutable_graphs())
                graph(g);
        }
    }

    void graph(onnx::GraphProto& g) {
        fix(g.mutable_name());
        for (auto& n : *g.mutable_node())
            node(n);
        for (auto& t : *g.mutable_initializer())
            tensor(t);
        for (auto& s : *g.mutable_sparse_initializer()) {
            tensor(*s.mutable_values());
            tensor(*s.mutable_indices());
        }
        for (auto* list : {g.mutable_input(), g.mutable_output(), g.mutable_value_info()})
            for (auto& v : *list)
                value(v);
    }
};

} // namespace

int sanitizeNames(onnx::ModelProto& model) {
    Sanitizer s;
    s.fix(model.mutable_producer_name());
    s.fix(model.mutable_producer_version());
    for (auto& op : *model.mutable_opset_import())
        s.fix(op.mutable_domain());
    if (model.has_graph())
        s.graph(*model.mutable_graph());
    return s.changed;
}

} // namespace bpu
