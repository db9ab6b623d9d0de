// SPDX-License-Identifier: MIT
#include "OnnxConvert.h"

#include <cstring>

namespace bpu {

TensorShape shapeFromProto(const onnx::TensorShapeProto& s) {
    TensorShape out;
    out.rankKnown = true;
    out.dims.reserve(static_cast<size_t>(s.dim_size()));
    for (const auto& d : s.dim())
        out.dims.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value()
                                                                   : TensorShape::kUnknownDim);
    for (int i = 0; i < s.dim_size(); ++i)
        if (out.dims[size_t(i)] < 0 && s.dim(i).has_dim_param())
            out.setSymbol(size_t(i), s.dim(i).dim_param());
    return out;
}

TensorShape shapeFromType(const onnx::TypeProto& t) {
    if (t.has_tensor_type() && t.tensor_type().has_shape())
        return shapeFromProto(t.tensor_type().shape());
    return {};
}

void fillType(onnx::TypeProto& out, int32_t dtype, const TensorShape& shape) {
    auto* tt = out.mutable_tensor_type();
    tt->set_elem_type(dtype);
    if (!shape.rankKnown)
        return;
    auto* sp = tt->mutable_shape();
    for (size_t i = 0; i < shape.dims.size(); ++i) {
        auto* d = sp->add_dim();
        if (shape.dims[i] >= 0)
            d->set_dim_value(shape.dims[i]);
        else if (!shape.symbol(i).empty())
            d->set_dim_param(shape.symbol(i));
    }
}

namespace {
template <typename T>
void readRaw(const std::string& raw, size_t n, std::vector<int64_t>* ints, std::vector<double>* floats) {
    for (size_t i = 0; i < n; ++i) {
        T v;
        std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
        if (ints)
            ints->push_back(static_cast<int64_t>(v));
        else
            floats->push_back(static_cast<double>(v));
    }
}
} // namespace

std::shared_ptr<const ConstValue> constFromTensorProto(const onnx::TensorProto& t) {
    if (t.data_location() == onnx::TensorProto::EXTERNAL)
        return nullptr;
    int64_t n = 1;
    for (auto d : t.dims()) {
        if (d < 0 || d > kMaxConstElements)
            return nullptr;
        n *= d;
        if (n > kMaxConstElements)
            return nullptr;
    }
    auto v = std::make_shared<ConstValue>();
    v->dtype = static_cast<DataType>(t.data_type());
    v->dims.assign(t.dims().begin(), t.dims().end());
    const auto& raw = t.raw_data();
    const bool hasRaw = t.has_raw_data();
    auto need = [&](size_t elemSize) { return raw.size() == static_cast<size_t>(n) * elemSize; };
    switch (t.data_type()) {
    case onnx::TensorProto::INT64:
        if (hasRaw) {
            if (!need(8))
                return nullptr;
            readRaw<int64_t>(raw, n, &v->ints, nullptr);
        } else
            v->ints.assign(t.int64_data().begin(), t.int64_data().end());
        break;
    case onnx::TensorProto::INT32:
    case onnx::TensorProto::INT16:
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::UINT8:
    case onnx::TensorProto::UINT16:
    case onnx::TensorProto::BOOL:
        if (hasRaw) {
            switch (t.data_type()) {
            case onnx::TensorProto::INT32:
                if (!need(4))
                    return nullptr;
                readRaw<int32_t>(raw, n, &v->ints, nullptr);
                break;
            case onnx::TensorProto::INT16:
                if (!need(2))
                    return nullptr;
                readRaw<int16_t>(raw, n, &v->ints, nullptr);
                break;
            case onnx::TensorProto::UINT16:
                if (!need(2))
                    return nullptr;
                readRaw<uint16_t>(raw, n, &v->ints, nullptr);
                break;
            case onnx::TensorProto::INT8:
                if (!need(1))
                    return nullptr;
                readRaw<int8_t>(raw, n, &v->ints, nullptr);
                break;
            default:
                if (!need(1))
                    return nullptr;
                readRaw<uint8_t>(raw, n, &v->ints, nullptr);
                break;
            }
        } else
            v->ints.assign(t.int32_data().begin(), t.int32_data().end());
        break;
    case onnx::TensorProto::FLOAT:
        if (hasRaw) {
            if (!need(4))
                return nullptr;
            readRaw<float>(raw, n, nullptr, &v->floats);
        } else
            v->floats.assign(t.float_data().begin(), t.float_data().end());
        break;
    case onnx::TensorProto::DOUBLE:
        if (hasRaw) {
            if (!need(8))
                return nullptr;
            readRaw<double>(raw, n, nullptr, &v->floats);
        } else
            v->floats.assign(t.double_data().begin(), t.double_data().end());
        break;
    default:
        return nullptr;
    }
    if (static_cast<int64_t>(v->size()) != n)
        return nullptr;
    return v;
}

void constToTensorProto(const ConstValue& v, onnx::TensorProto& out) {
    out.set_data_type(static_cast<int32_t>(v.dtype));
    for (auto d : v.dims)
        out.add_dims(d);
    switch (v.dtype) {
    case DataType::Int64:
        for (auto x : v.ints)
            out.add_int64_data(x);
        break;
    case DataType::Float:
        for (auto x : v.floats)
            out.add_float_data(static_cast<float>(x));
        break;
    case DataType::Double:
        for (auto x : v.floats)
            out.add_double_data(x);
        break;
    default:
        if (v.isInt())
            for (auto x : v.ints)
                out.add_int32_data(static_cast<int32_t>(x));
        else {
            // float16 etc. are not written back; callers see no data and onnx treats the input as unknown.
            out.set_data_type(static_cast<int32_t>(DataType::Float));
            for (auto x : v.floats)
                out.add_float_data(static_cast<float>(x));
        }
        break;
    }
}

} // namespace bpu
