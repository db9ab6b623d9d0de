// SPDX-License-Identifier: MIT
#include "ModelChecks.h"

#include "DataType.h"
#include "ImportError.h"
#include "NodeChecks.h"
#include "TensorShape.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <unordered_set>

namespace bpu {

namespace {

/// ONNX adds about three opsets a year (opset 28 with ONNX 1.23 in 2026); a version far beyond that is
/// not a newer model but a broken or hostile one. The same bound serves IR versions (11 in 2026).
constexpr int64_t kMaxPlausibleVersion = 64;
/// The ONNX data types BpuScope sizes (DataType, UNDEFINED..BFLOAT16); 17 and up are the float8/int4/
/// float4 types of ONNX 1.14+.
constexpr int32_t kLastKnownType = static_cast<int32_t>(DataType::BFloat16);
constexpr int32_t kLastOnnxType = 23;

/// Why data type `t` cannot be used ("" if it can): " has data type 99: not an ONNX data type".
std::string typeProblem(int64_t t, bool undefinedOk) {
    std::string why;
    if (t == 0 && !undefinedOk)
        why = "it is undefined";
    else if (t > kLastKnownType && t <= kLastOnnxType)
        why = "a float8/int4 type of ONNX 1.14 or later, which BpuScope cannot size";
    else if (t < 0 || t > kLastKnownType)
        why = "not an ONNX data type";
    return why.empty() ? why : "has data type " + std::to_string(t) + ": " + why;
}

/// Elements the typed data fields hold per tensor element (complex values take two).
int perElement(int32_t t) {
    return t == onnx::TensorProto::COMPLEX64 || t == onnx::TensorProto::COMPLEX128 ? 2 : 1;
}

/// How many values the tensor's typed field for its data type holds.
int64_t typedValues(const onnx::TensorProto& t) {
    switch (t.data_type()) {
    case onnx::TensorProto::FLOAT:
    case onnx::TensorProto::COMPLEX64:
        return t.float_data_size();
    case onnx::TensorProto::INT64:
        return t.int64_data_size();
    case onnx::TensorProto::DOUBLE:
    case onnx::TensorProto::COMPLEX128:
        return t.double_data_size();
    case onnx::TensorProto::UINT32:
    case onnx::TensorProto::UINT64:
        return t.uint64_data_size();
    case onnx::TensorProto::STRING:
        return t.string_data_size();
    default:
        return t.int32_data_size();
    }
}

class Checker {
public:
    Checker(const std::string& path, std::vector<std::string>& warnings)
        : path_(path)
        , warnings_(warnings) {}

    [[noreturn]] void fail(const std::string& problem) const { throw ImportError(path_, problem); }

    void versions(const onnx::ModelProto& m) const {
        if (m.ir_version() < 0 || m.ir_version() > kMaxPlausibleVersion)
            fail("IR version " + std::to_string(m.ir_version()) + " does not exist (ONNX's newest is 11)");
        const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
        std::unordered_set<std::string> seen;
        for (const auto& op : m.opset_import()) {
            const std::string domain = op.domain() == "ai.onnx" ? std::string{} : op.domain();
            const std::string shown =
                domain.empty() ? std::string("the default domain") : "domain '" + domain + "'";
            if (!seen.insert(domain).second)
                fail("opset_import lists " + shown + " twice");
            if (op.version() < 1 || op.version() > kMaxPlausibleVersion)
                fail("opset " + std::to_string(op.version()) + " for " + shown + " does not exist" +
                     (domain.empty() ? " (ONNX's newest is 28)" : ""));
            auto it = known.find(domain);
            if (it != known.end() && op.version() > it->second.second)
                warnings_.push_back("the model uses opset " + std::to_string(op.version()) + " of " + shown +
                                    "; the onnx library here knows up to " +
                                    std::to_string(it->second.second) +
                                    ": operators are inferred with their newest schema up to that");
        }
    }

    void valueType(const onnx::ValueInfoProto& v, const std::string& where) const {
        if (!v.type().has_tensor_type())
            return;
        if (std::string p = typeProblem(v.type().tensor_type().elem_type(), true); !p.empty())
            fail(where + " '" + v.name() + "' " + p);
    }

    /// `where()` names the tensor's place ("initializer", a node's attribute) and is called only for a
    /// message.
    template <class Where> void tensor(const onnx::TensorProto& t, const Where& where) const {
        auto who = [&] {
            return where() + " '" + t.name() + "'";
        };
        if (std::string p = typeProblem(t.data_type(), false); !p.empty())
            fail(who() + " " + p);
        std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
        for (size_t i = 0; i < dims.size(); ++i)
            if (dims[i] < 0)
                fail(who() + " has a negative dim (" + std::to_string(dims[i]) + " at axis " +
                     std::to_string(i) + ")");
        const auto elements = checkedProduct(dims);
        if (!elements)
            fail(who() + ": its element count overflows 64 bits");
        if (t.data_location() == onnx::TensorProto::EXTERNAL)
            return; // vetted and sized by ExternalData; never read
        const int64_t elemBytes = bytesPerElement(static_cast<DataType>(t.data_type()));
        if (t.has_raw_data()) {
            if (t.data_type() == onnx::TensorProto::STRING)
                fail(who() + " holds strings as raw_data, which ONNX does not allow");
            const auto need = checkedProduct({*elements, elemBytes});
            if (!need || static_cast<uint64_t>(*need) != t.raw_data().size())
                fail(who() + " has " + std::to_string(t.raw_data().size()) +
                     " bytes of raw_data, but its dims " + shapeText(dims) + " need " +
                     (need ? std::to_string(*need) + " bytes" : std::string("more than 2^63 bytes")));
            return;
        }
        const int64_t have = typedValues(t);
        if (have == 0)
            return; // no data at all: a graph-only initializer, sized from its dims
        const auto need = checkedProduct({*elements, perElement(t.data_type())});
        if (!need || *need != have)
            fail(who() + " holds " + std::to_string(have) + " values, but its dims " + shapeText(dims) +
                 " need " + (need ? std::to_string(*need) : std::string("more than 2^63")));
    }

    void graph(const onnx::GraphProto& g, const std::string& scope) {
        for (const auto& t : g.initializer())
            tensor(t, [] { return std::string("initializer"); });
        for (const auto& s : g.sparse_initializer()) {
            if (std::string p = typeProblem(s.values().data_type(), false); !p.empty())
                fail("sparse initializer '" + s.values().name() + "' " + p);
        }
        for (const auto& v : g.input())
            valueType(v, "input");
        for (const auto& v : g.output())
            valueType(v, "output");
        for (const auto& v : g.value_info())
            valueType(v, "value");
        for (int i = 0; i < g.node_size(); ++i)
            node(g.node(i), i, scope);
    }

    void node(const onnx::NodeProto& n, int index, const std::string& scope) {
        // The node's label is built only for a message: at 100k nodes building it for each is measurable.
        auto who = [&] {
            return nodeLabel(n, index) + scope;
        };
        if (std::string p = attributeProblem(n.op_type(), n.domain(), attributesOf(n)); !p.empty())
            fail(who() + ": " + p);
        for (const auto& a : n.attribute()) {
            if (n.op_type() == "Cast" && a.name() == "to" && a.has_i())
                if (std::string p = typeProblem(a.i(), false); !p.empty())
                    fail(who() + ": attribute 'to' " + p);
            auto where = [&] {
                return who() + ": attribute '" + a.name() + "' tensor";
            };
            if (a.has_t())
                tensor(a.t(), where);
            for (const auto& t : a.tensors())
                tensor(t, where);
            if (!a.has_g() && a.graphs().empty())
                continue;
            const std::string inner = " in the body '" + a.name() + "' of " + nodeLabel(n, index) + scope;
            if (a.has_g())
                graph(a.g(), inner);
            for (const auto& g : a.graphs())
                graph(g, inner);
        }
    }

private:
    static std::string shapeText(const std::vector<int64_t>& dims) {
        std::string s = "[";
        for (size_t i = 0; i < dims.size(); ++i)
            s += (i ? ", " : "") + std::to_string(dims[i]);
        return s + "]";
    }

    const std::string& path_;
    std::vector<std::string>& warnings_;
};

} // namespace

void checkModel(const std::string& path, const onnx::ModelProto& model, std::vector<std::string>& warnings) {
    Checker c(path, warnings);
    c.versions(model);
    c.graph(model.graph(), "");
}

std::string outputSlots(const onnx::NodeProto& n, const std::string& name) {
    std::string slots;
    for (int i = 0; i < n.output_size(); ++i)
        if (n.output(i) == name)
            slots += (slots.empty() ? "" : " and ") + std::to_string(i);
    return slots;
}

std::string nodeLabel(const onnx::NodeProto& n, int index) {
    return "node '" + (n.name().empty() ? "#" + std::to_string(index) : n.name()) + "' (" +
           (n.domain().empty() ? "" : n.domain() + ".") + n.op_type() + ")";
}

} // namespace bpu
