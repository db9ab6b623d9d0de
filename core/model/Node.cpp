// SPDX-License-Identifier: MIT
#include "Node.h"

#include <onnx/onnx_pb.h>

#include <sstream>

namespace bpu {

namespace {
const onnx::AttributeProto* findAttr(const onnx::NodeProto* p, const std::string& key) {
    if (!p)
        return nullptr;
    for (const auto& a : p->attribute())
        if (a.name() == key)
            return &a;
    return nullptr;
}
} // namespace

std::optional<int64_t> Node::attrInt(const std::string& key) const {
    const auto* a = findAttr(proto.get(), key);
    if (!a || a->type() != onnx::AttributeProto::INT)
        return std::nullopt;
    return a->i();
}

std::optional<float> Node::attrFloat(const std::string& key) const {
    const auto* a = findAttr(proto.get(), key);
    if (!a || a->type() != onnx::AttributeProto::FLOAT)
        return std::nullopt;
    return a->f();
}

std::optional<std::string> Node::attrString(const std::string& key) const {
    const auto* a = findAttr(proto.get(), key);
    if (!a || a->type() != onnx::AttributeProto::STRING)
        return std::nullopt;
    return a->s();
}

std::optional<std::vector<int64_t>> Node::attrInts(const std::string& key) const {
    const auto* a = findAttr(proto.get(), key);
    if (!a || a->type() != onnx::AttributeProto::INTS)
        return std::nullopt;
    return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::vector<std::string> Node::attributeNames() const {
    std::vector<std::string> names;
    if (proto)
        for (const auto& a : proto->attribute())
            names.push_back(a.name());
    return names;
}

std::string Node::attributeText(const std::string& key) const {
    const auto* a = findAttr(proto.get(), key);
    if (!a)
        return {};
    std::ostringstream os;
    auto list = [&os](const auto& items) {
        // Display text: a list of a million values would stall whatever shows it.
        constexpr int kShown = 32;
        os << '[';
        for (int i = 0; i < items.size() && i < kShown; ++i)
            os << (i ? ", " : "") << items.Get(i);
        if (items.size() > kShown)
            os << ", ... (" << items.size() << " values)";
        os << ']';
    };
    switch (a->type()) {
    case onnx::AttributeProto::INT: os << a->i(); break;
    case onnx::AttributeProto::FLOAT: os << a->f(); break;
    case onnx::AttributeProto::STRING: os << '\'' << a->s() << '\''; break;
    case onnx::AttributeProto::INTS: list(a->ints()); break;
    case onnx::AttributeProto::FLOATS: list(a->floats()); break;
    case onnx::AttributeProto::STRINGS: list(a->strings()); break;
    case onnx::AttributeProto::GRAPH: os << "<graph: " << a->g().node_size() << " nodes>"; break;
    case onnx::AttributeProto::TENSOR: os << "<tensor>"; break;
    default: os << "<attribute>"; break;
    }
    return os.str();
}

std::shared_ptr<const onnx::NodeProto> Node::withIntAttribute(const std::string& key, int64_t value) const {
    auto copy = std::make_shared<onnx::NodeProto>(proto ? *proto : onnx::NodeProto{});
    onnx::AttributeProto* target = nullptr;
    for (auto& a : *copy->mutable_attribute())
        if (a.name() == key)
            target = &a;
    if (!target) {
        target = copy->add_attribute();
        target->set_name(key);
    }
    target->set_type(onnx::AttributeProto::INT);
    target->set_i(value);
    return copy;
}

} // namespace bpu
