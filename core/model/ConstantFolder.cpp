// SPDX-License-Identifier: MIT
#include "ConstantFolder.h"

#include "OnnxConvert.h"
#include "core/util/CheckedMath.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>

namespace bpu {

namespace {

using Value = std::shared_ptr<const ConstValue>;
using Values = std::vector<Value>;

Value makeInts(std::vector<int64_t> dims, std::vector<int64_t> ints, DataType dt = DataType::Int64) {
    auto v = std::make_shared<ConstValue>();
    v->dtype = dt;
    v->dims = std::move(dims);
    v->ints = std::move(ints);
    return v;
}

// Element count of dims already known to be small (smallEnough) or taken from a small value.
int64_t count(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (auto d : dims)
        n = satMul(n, d);
    return n;
}

// A double result stored in an integer value: only if it is a number int64 holds exactly enough (the
// shape arithmetic this folds never leaves +-2^53); otherwise there is no value.
std::optional<int64_t> exactInt(double r) {
    if (!std::isfinite(r) || std::fabs(r) > 9.0e15)
        return std::nullopt;
    return static_cast<int64_t>(r);
}

bool smallEnough(const std::vector<int64_t>& dims) {
    int64_t n = 1;
    for (auto d : dims) {
        if (d < 0 || d > kMaxConstElements)
            return false;
        n *= d;
        if (n > kMaxConstElements)
            return false;
    }
    return true;
}

// Exporters compute Resize sizes in float32 (floor(320 * scale)); rounding each step to the declared
// precision keeps results that land exactly on an integer from drifting to x.9999 in double.
double storedAs(DataType dt, double r) {
    return dt == DataType::Float ? double(static_cast<float>(r)) : r;
}

int64_t normAxis(int64_t axis, int64_t rank) {
    return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> strides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> s(dims.size(), 1);
    for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i)
        s[i] = s[i + 1] * dims[i + 1];
    return s;
}

std::optional<std::vector<int64_t>> broadcastDims(const std::vector<int64_t>& a,
                                                  const std::vector<int64_t>& b) {
    size_t r = std::max(a.size(), b.size());
    std::vector<int64_t> out(r);
    for (size_t i = 0; i < r; ++i) {
        int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
        int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
        if (da != db && da != 1 && db != 1)
            return std::nullopt;
        out[i] = std::max(da, db);
    }
    return out;
}

// Index into a broadcast operand for a flat output index.
int64_t broadcastIndex(int64_t flat, const std::vector<int64_t>& outDims,
                       const std::vector<int64_t>& inDims) {
    auto os = strides(outDims);
    auto is = strides(inDims);
    size_t off = outDims.size() - inDims.size();
    int64_t idx = 0;
    for (size_t i = 0; i < outDims.size(); ++i) {
        int64_t coord = (flat / os[i]) % outDims[i];
        if (i >= off && inDims[i - off] != 1)
            idx += coord * is[i - off];
    }
    return idx;
}

Value binary(const Value& a, const Value& b, const std::string& op) {
    auto dims = broadcastDims(a->dims, b->dims);
    if (!dims || !smallEnough(*dims))
        return nullptr;
    bool compare = op == "Equal" || op == "Less" || op == "Greater";
    bool asInt = a->isInt() && b->isInt();
    auto v = std::make_shared<ConstValue>();
    v->dims = *dims;
    v->dtype = compare ? DataType::Bool : a->dtype;
    int64_t n = count(*dims);
    for (int64_t i = 0; i < n; ++i) {
        int64_t ia = broadcastIndex(i, *dims, a->dims), ib = broadcastIndex(i, *dims, b->dims);
        if (asInt) {
            int64_t x = a->ints[ia], y = b->ints[ib], r = 0;
            // An int64 overflow (a hostile 2^62 * 2^62) leaves the value unknown rather than wrapped.
            if (op == "Add") {
                if (__builtin_add_overflow(x, y, &r))
                    return nullptr;
            } else if (op == "Sub") {
                if (__builtin_sub_overflow(x, y, &r))
                    return nullptr;
            } else if (op == "Mul") {
                if (__builtin_mul_overflow(x, y, &r))
                    return nullptr;
            } else if (op == "Div") {
                if (y == 0 || (y == -1 && x == std::numeric_limits<int64_t>::min()))
                    return nullptr;
                r = x / y;
            } else if (op == "Mod") {
                if (y == 0 || y == -1)
                    return nullptr;
                r = x % y;
            } else if (op == "Min")
                r = std::min(x, y);
            else if (op == "Max")
                r = std::max(x, y);
            else if (op == "Equal")
                r = x == y;
            else if (op == "Less")
                r = x < y;
            else if (op == "Greater")
                r = x > y;
            else
                return nullptr;
            v->ints.push_back(r);
        } else {
            double x = a->at(ia), y = b->at(ib), r = 0;
            if (op == "Add")
                r = x + y;
            else if (op == "Sub")
                r = x - y;
            else if (op == "Mul")
                r = x * y;
            else if (op == "Div")
                r = x / y;
            else if (op == "Min")
                r = std::min(x, y);
            else if (op == "Max")
                r = std::max(x, y);
            else if (op == "Pow")
                r = std::pow(x, y);
            else if (op == "Equal")
                r = x == y;
            else if (op == "Less")
                r = x < y;
            else if (op == "Greater")
                r = x > y;
            else
                return nullptr;
            if (compare)
                v->ints.push_back(r != 0);
            else if (v->isInt()) {
                const auto ri = exactInt(r);
                if (!ri)
                    return nullptr;
                v->ints.push_back(*ri);
            } else
                v->floats.push_back(storedAs(v->dtype, r));
        }
    }
    return v;
}

Value unary(const Value& a, const std::string& op) {
    auto v = std::make_shared<ConstValue>(*a);
    auto apply = [&](double x) -> double {
        if (op == "Floor")
            return std::floor(x);
        if (op == "Ceil")
            return std::ceil(x);
        if (op == "Neg")
            return -x;
        if (op == "Abs")
            return std::fabs(x);
        if (op == "Sqrt")
            return std::sqrt(x);
        if (op == "Not")
            return x == 0 ? 1 : 0;
        if (op == "Round")
            return std::nearbyint(x);
        if (op == "Reciprocal")
            return 1.0 / x;
        if (op == "Sign")
            return x > 0 ? 1 : x < 0 ? -1 : 0;
        if (op == "Exp")
            return std::exp(x);
        if (op == "Log")
            return std::log(x);
        if (op == "Relu")
            return std::max(x, 0.0);
        return x; // Identity
    };
    if (v->isInt()) {
        for (auto& x : v->ints) {
            const auto r = exactInt(apply(double(x)));
            if (!r)
                return nullptr; // Reciprocal(0) of an int, Neg(INT64_MIN): no value
            x = *r;
        }
    } else {
        for (auto& x : v->floats)
            x = storedAs(v->dtype, apply(x));
    }
    return v;
}

Value castTo(const Value& a, DataType to) {
    auto v = std::make_shared<ConstValue>();
    v->dtype = to;
    v->dims = a->dims;
    if (isIntegerType(to)) {
        for (size_t i = 0; i < a->size(); ++i) {
            const double x = a->at(i);
            if (to == DataType::Bool)
                v->ints.push_back(x != 0);
            else if (a->isInt())
                v->ints.push_back(a->ints[i]);
            else if (std::isfinite(x) && std::fabs(x) < 9.2e18)
                v->ints.push_back(static_cast<int64_t>(x)); // truncation toward zero, as Cast does
            else
                return nullptr;
        }
    } else {
        for (size_t i = 0; i < a->size(); ++i)
            v->floats.push_back(storedAs(to, a->at(i)));
    }
    return v;
}

Value gather(const Value& data, const Value& idx, int64_t axis) {
    if (!idx->isInt())
        return nullptr;
    int64_t r = static_cast<int64_t>(data->dims.size());
    axis = normAxis(axis, r);
    if (r == 0 || axis < 0 || axis >= r)
        return nullptr;
    std::vector<int64_t> outDims(data->dims.begin(), data->dims.begin() + axis);
    outDims.insert(outDims.end(), idx->dims.begin(), idx->dims.end());
    outDims.insert(outDims.end(), data->dims.begin() + axis + 1, data->dims.end());
    if (!smallEnough(outDims))
        return nullptr;
    int64_t outer = count({data->dims.begin(), data->dims.begin() + axis});
    int64_t inner = count({data->dims.begin() + axis + 1, data->dims.end()});
    int64_t extent = data->dims[axis];
    auto v = std::make_shared<ConstValue>();
    v->dtype = data->dtype;
    v->dims = outDims;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t k : idx->ints) {
            if (k < 0)
                k += extent;
            if (k < 0 || k >= extent)
                return nullptr;
            for (int64_t in = 0; in < inner; ++in) {
                int64_t src = (o * extent + k) * inner + in;
                if (data->isInt())
                    v->ints.push_back(data->ints[src]);
                else
                    v->floats.push_back(data->floats[src]);
            }
        }
    return v;
}

Value concat(const Values& parts, int64_t axis) {
    if (parts.empty())
        return nullptr;
    int64_t r = static_cast<int64_t>(parts[0]->dims.size());
    axis = normAxis(axis, r);
    if (axis < 0 || axis >= r)
        return nullptr;
    std::vector<int64_t> outDims = parts[0]->dims;
    outDims[axis] = 0;
    for (const auto& p : parts) {
        if (static_cast<int64_t>(p->dims.size()) != r || p->isInt() != parts[0]->isInt())
            return nullptr;
        for (int64_t i = 0; i < r; ++i)
            if (i != axis && p->dims[i] != parts[0]->dims[i])
                return nullptr;
        outDims[axis] += p->dims[axis];
    }
    if (!smallEnough(outDims))
        return nullptr;
    int64_t outer = count({outDims.begin(), outDims.begin() + axis});
    auto v = std::make_shared<ConstValue>();
    v->dtype = parts[0]->dtype;
    v->dims = outDims;
    for (int64_t o = 0; o < outer; ++o)
        for (const auto& p : parts) {
            int64_t chunk = count({p->dims.begin() + axis, p->dims.end()});
            for (int64_t i = 0; i < chunk; ++i) {
                if (v->isInt())
                    v->ints.push_back(p->ints[o * chunk + i]);
                else
                    v->floats.push_back(p->floats[o * chunk + i]);
            }
        }
    return v;
}

// Copies element `src` of `from` to the end of `to` (same kind, int or float).
void append(ConstValue& to, const ConstValue& from, int64_t src) {
    if (to.isInt())
        to.ints.push_back(from.ints[src]);
    else
        to.floats.push_back(from.floats[src]);
}

// ONNX Slice over any rank: per-axis start/end clamped as the spec says (differently for negative steps).
Value slice(const Value& data, const std::vector<int64_t>& starts, const std::vector<int64_t>& ends,
            std::vector<int64_t> axes, const std::vector<int64_t>& steps) {
    const int64_t r = static_cast<int64_t>(data->dims.size());
    if (r == 0 || starts.size() != ends.size() || (!axes.empty() && axes.size() != starts.size()) ||
        (!steps.empty() && steps.size() != starts.size()))
        return nullptr;
    if (axes.empty())
        for (size_t i = 0; i < starts.size(); ++i)
            axes.push_back(static_cast<int64_t>(i));
    std::vector<int64_t> first(r, 0), step(r, 1), outDims = data->dims;
    for (size_t i = 0; i < axes.size(); ++i) {
        int64_t ax = normAxis(axes[i], r);
        if (ax < 0 || ax >= r)
            return nullptr;
        int64_t n = data->dims[ax], st = steps.empty() ? 1 : steps[i];
        if (st == 0)
            return nullptr;
        // Shift negatives by n, saturating: exporters use INT64_MIN/MAX for "to the end".
        auto shift = [n](int64_t x) {
            return x < 0 ? (x < -n ? -n - 1 : x + n) : x;
        };
        int64_t b = shift(starts[i]), e = shift(ends[i]);
        // Ceil division written so no step (INT64_MAX, INT64_MIN) overflows.
        if (st > 0) {
            b = std::clamp<int64_t>(b, 0, n);
            e = std::clamp<int64_t>(e, 0, n);
            outDims[ax] = e > b ? (e - b - 1) / st + 1 : 0;
        } else {
            b = std::clamp<int64_t>(b, 0, n - 1);
            e = std::clamp<int64_t>(e, -1, n - 1);
            outDims[ax] = b > e ? (st == std::numeric_limits<int64_t>::min() ? 1 : (b - e - 1) / -st + 1) : 0;
        }
        first[ax] = b;
        step[ax] = st;
    }
    if (!smallEnough(outDims))
        return nullptr;
    auto v = std::make_shared<ConstValue>();
    v->dtype = data->dtype;
    v->dims = outDims;
    const auto in = strides(data->dims), out = strides(outDims);
    const int64_t total = count(outDims);
    for (int64_t flat = 0; flat < total; ++flat) {
        int64_t src = 0;
        for (int64_t ax = 0; ax < r; ++ax)
            src += (first[ax] + ((flat / out[ax]) % outDims[ax]) * step[ax]) * in[ax];
        append(*v, *data, src);
    }
    return v;
}

Value transpose(const Value& data, std::vector<int64_t> perm) {
    const int64_t r = static_cast<int64_t>(data->dims.size());
    if (perm.empty())
        for (int64_t i = r - 1; i >= 0; --i)
            perm.push_back(i);
    if (static_cast<int64_t>(perm.size()) != r)
        return nullptr;
    std::vector<int64_t> outDims(r);
    for (int64_t i = 0; i < r; ++i) {
        if (perm[i] < 0 || perm[i] >= r)
            return nullptr;
        outDims[i] = data->dims[perm[i]];
    }
    auto v = std::make_shared<ConstValue>();
    v->dtype = data->dtype;
    v->dims = outDims;
    const auto in = strides(data->dims), out = strides(outDims);
    const int64_t total = count(outDims);
    for (int64_t flat = 0; flat < total; ++flat) {
        int64_t src = 0;
        for (int64_t i = 0; i < r; ++i)
            src += ((flat / out[i]) % outDims[i]) * in[perm[i]];
        append(*v, *data, src);
    }
    return v;
}

Value expand(const Value& data, const std::vector<int64_t>& shape) {
    auto dims = broadcastDims(data->dims, shape);
    if (!dims || !smallEnough(*dims))
        return nullptr;
    auto v = std::make_shared<ConstValue>();
    v->dtype = data->dtype;
    v->dims = *dims;
    const int64_t total = count(*dims);
    for (int64_t flat = 0; flat < total; ++flat)
        append(*v, *data, broadcastIndex(flat, *dims, data->dims));
    return v;
}

Value tile(const Value& data, const std::vector<int64_t>& repeats) {
    const size_t r = data->dims.size();
    if (repeats.size() != r)
        return nullptr;
    std::vector<int64_t> outDims(r);
    for (size_t i = 0; i < r; ++i) {
        if (repeats[i] < 0)
            return nullptr;
        outDims[i] = satMul(data->dims[i], repeats[i]);
    }
    if (!smallEnough(outDims))
        return nullptr;
    auto v = std::make_shared<ConstValue>();
    v->dtype = data->dtype;
    v->dims = outDims;
    const auto in = strides(data->dims), out = strides(outDims);
    const int64_t total = count(outDims);
    for (int64_t flat = 0; flat < total; ++flat) {
        int64_t src = 0;
        for (size_t i = 0; i < r; ++i)
            src += (((flat / out[i]) % outDims[i]) % data->dims[i]) * in[i];
        append(*v, *data, src);
    }
    return v;
}

std::optional<std::vector<int64_t>> axesFrom(const Graph& g, const Node& n, size_t inputIdx) {
    if (auto a = n.attrInts("axes"))
        return a;
    if (n.inputs.size() > inputIdx && n.inputs[inputIdx].valid()) {
        const auto& t = g.tensor(n.inputs[inputIdx]);
        if (t.value && t.value->isInt())
            return t.value->ints;
        return std::nullopt;
    }
    return std::vector<int64_t>{};
}

} // namespace

Values ConstantFolder::fold(const Graph& g, const Node& n) {
    if (!n.domain.empty() && n.domain != "ai.onnx")
        return {};
    const std::string& op = n.opType;

    if (op == "Constant") {
        if (!n.proto)
            return {};
        for (const auto& a : n.proto->attribute()) {
            if (a.name() == "value" && a.has_t()) {
                if (auto v = constFromTensorProto(a.t()))
                    return {v};
            } else if (a.name() == "value_int")
                return {makeInts({}, {a.i()})};
            else if (a.name() == "value_ints")
                return {makeInts({a.ints_size()}, {a.ints().begin(), a.ints().end()})};
            else if (a.name() == "value_float") {
                auto v = std::make_shared<ConstValue>();
                v->dtype = DataType::Float;
                v->floats = {a.f()};
                return {v};
            } else if (a.name() == "value_floats") {
                auto v = std::make_shared<ConstValue>();
                v->dtype = DataType::Float;
                v->dims = {a.floats_size()};
                v->floats.assign(a.floats().begin(), a.floats().end());
                return {v};
            }
        }
        return {};
    }

    // Shape and Size need only the input's shape, not its value.
    if ((op == "Shape" || op == "Size") && !n.inputs.empty() && n.inputs[0].valid()) {
        const auto& s = g.tensor(n.inputs[0]).shape;
        if (!s.fullyKnown())
            return {};
        if (op == "Size")
            return {makeInts({}, {s.elements().value_or(0)})};
        int64_t r = static_cast<int64_t>(s.rank());
        int64_t start = std::clamp<int64_t>(normAxis(n.attrIntOr("start", 0), r), 0, r);
        int64_t end = std::clamp<int64_t>(normAxis(n.attrIntOr("end", r), r), 0, r);
        std::vector<int64_t> dims(s.dims.begin() + start, s.dims.begin() + std::max(start, end));
        int64_t len = static_cast<int64_t>(dims.size());
        return {makeInts({len}, std::move(dims))};
    }

    // Everything else needs every (present) input's value.
    Values in;
    for (TensorId t : n.inputs) {
        if (!t.valid()) {
            in.push_back(nullptr);
            continue;
        }
        const auto& v = g.tensor(t).value;
        if (!v)
            return {};
        in.push_back(v);
    }
    if (in.empty() || !in[0])
        return {};
    const Value& a = in[0];

    static const char* kBinary[] = {"Add", "Sub", "Mul",   "Div",  "Mod",    "Min",
                                    "Max", "Pow", "Equal", "Less", "Greater"};
    for (const char* b : kBinary)
        if (op == b && in.size() == 2 && in[1]) {
            auto r = binary(a, in[1], op);
            return r ? Values{r} : Values{};
        }
    if (op == "Identity" || op == "Floor" || op == "Ceil" || op == "Neg" || op == "Abs" || op == "Sqrt" ||
        op == "Not" || op == "Round" || op == "Reciprocal" || op == "Sign" || op == "Exp" || op == "Log" ||
        op == "Relu") {
        auto r = unary(a, op);
        return r ? Values{r} : Values{};
    }
    if (op == "Cast") {
        auto to = n.attrInt("to");
        return to ? Values{castTo(a, static_cast<DataType>(*to))} : Values{};
    }
    if (op == "Gather" && in.size() == 2) {
        auto r = gather(a, in[1], n.attrIntOr("axis", 0));
        return r ? Values{r} : Values{};
    }
    if (op == "Concat") {
        auto r = concat(in, n.attrIntOr("axis", 0));
        return r ? Values{r} : Values{};
    }
    if (op == "Unsqueeze" || op == "Squeeze") {
        auto axes = axesFrom(g, n, 1);
        if (!axes)
            return {};
        auto v = std::make_shared<ConstValue>(*a);
        if (op == "Unsqueeze") {
            int64_t r = static_cast<int64_t>(a->dims.size() + axes->size());
            std::vector<int64_t> sorted;
            for (auto ax : *axes)
                sorted.push_back(normAxis(ax, r));
            std::sort(sorted.begin(), sorted.end());
            for (auto ax : sorted) {
                if (ax < 0 || ax > static_cast<int64_t>(v->dims.size()))
                    return {};
                v->dims.insert(v->dims.begin() + ax, 1);
            }
        } else {
            int64_t r = static_cast<int64_t>(a->dims.size());
            std::vector<int64_t> dims;
            for (int64_t i = 0; i < r; ++i) {
                bool drop = axes->empty() ? a->dims[i] == 1
                                          : std::any_of(axes->begin(), axes->end(),
                                                        [&](int64_t ax) { return normAxis(ax, r) == i; });
                if (!drop)
                    dims.push_back(a->dims[i]);
            }
            v->dims = dims;
        }
        return {v};
    }
    if (op == "Reshape" && in.size() == 2 && in[1] && in[1]->isInt()) {
        std::vector<int64_t> dims = in[1]->ints;
        int64_t known = 1, inferIdx = -1;
        for (size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] == 0 && !n.attrIntOr("allowzero", 0))
                dims[i] = i < a->dims.size() ? a->dims[i] : 1;
            if (dims[i] < -1 || (dims[i] == -1 && inferIdx >= 0))
                return {}; // not a valid target shape: onnx says why
            if (dims[i] == -1)
                inferIdx = static_cast<int64_t>(i);
            else
                known = satMul(known, dims[i]);
        }
        int64_t total = static_cast<int64_t>(a->size());
        if (inferIdx >= 0)
            dims[inferIdx] = known ? total / known : 0;
        const auto elements = checkedProduct(dims);
        if (!elements || *elements != total)
            return {};
        auto v = std::make_shared<ConstValue>(*a);
        v->dims = dims;
        return {v};
    }
    if (op == "Slice") {
        std::vector<int64_t> starts, ends, axes, steps;
        if (auto s = n.attrInts("starts")) { // opset < 10
            starts = *s;
            ends = n.attrInts("ends").value_or(std::vector<int64_t>{});
            axes = n.attrInts("axes").value_or(std::vector<int64_t>{});
        } else {
            auto get = [&](size_t i, std::vector<int64_t>& dst) {
                if (i < in.size() && in[i] && in[i]->isInt())
                    dst = in[i]->ints;
            };
            get(1, starts);
            get(2, ends);
            get(3, axes);
            get(4, steps);
        }
        if (starts.empty())
            return {};
        auto r = slice(a, starts, ends, axes, steps);
        return r ? Values{r} : Values{};
    }
    if (op == "Transpose") {
        auto r = transpose(a, n.attrInts("perm").value_or(std::vector<int64_t>{}));
        return r ? Values{r} : Values{};
    }
    if (op == "Expand" && in.size() == 2 && in[1] && in[1]->isInt()) {
        auto r = expand(a, in[1]->ints);
        return r ? Values{r} : Values{};
    }
    if (op == "Tile" && in.size() == 2 && in[1] && in[1]->isInt()) {
        auto r = tile(a, in[1]->ints);
        return r ? Values{r} : Values{};
    }
    if (op == "ConstantOfShape" && a->isInt()) {
        if (!smallEnough(a->ints))
            return {};
        auto v = std::make_shared<ConstValue>();
        v->dims = a->ints;
        v->dtype = DataType::Float;
        double fill = 0;
        if (n.proto)
            for (const auto& at : n.proto->attribute())
                if (at.name() == "value" && at.has_t())
                    if (auto c = constFromTensorProto(at.t()); c && c->size() == 1) {
                        v->dtype = c->dtype;
                        fill = c->at(0);
                    }
        int64_t cnt = count(v->dims);
        if (v->isInt()) {
            const auto f = exactInt(fill);
            if (!f)
                return {};
            v->ints.assign(cnt, *f);
        } else {
            v->floats.assign(cnt, fill);
        }
        return {v};
    }
    if (op == "Range" && in.size() == 3 && in[1] && in[2]) {
        double start = a->at(0), limit = in[1]->at(0), delta = in[2]->at(0);
        if (delta == 0)
            return {};
        const double steps = std::ceil((limit - start) / delta);
        if (!std::isfinite(steps) || steps > double(kMaxConstElements))
            return {};
        const int64_t cnt = std::max<int64_t>(0, static_cast<int64_t>(steps));
        auto v = std::make_shared<ConstValue>();
        v->dtype = a->dtype;
        v->dims = {cnt};
        for (int64_t i = 0; i < cnt; ++i) {
            if (v->isInt()) {
                const auto x = exactInt(start + double(i) * delta);
                if (!x)
                    return {};
                v->ints.push_back(*x);
            } else {
                v->floats.push_back(start + double(i) * delta);
            }
        }
        return {v};
    }
    if (op == "Where" && in.size() == 3 && in[1] && in[2]) {
        auto d1 = broadcastDims(a->dims, in[1]->dims);
        if (!d1)
            return {};
        auto dims = broadcastDims(*d1, in[2]->dims);
        if (!dims || !smallEnough(*dims) || in[1]->isInt() != in[2]->isInt())
            return {};
        auto v = std::make_shared<ConstValue>();
        v->dtype = in[1]->dtype;
        v->dims = *dims;
        for (int64_t i = 0; i < count(*dims); ++i) {
            bool c = a->at(broadcastIndex(i, *dims, a->dims)) != 0;
            const Value& src = c ? in[1] : in[2];
            int64_t j = broadcastIndex(i, *dims, src->dims);
            if (v->isInt())
                v->ints.push_back(src->ints[j]);
            else
                v->floats.push_back(src->floats[j]);
        }
        return {v};
    }
    if ((op == "ReduceProd" || op == "ReduceSum" || op == "ReduceMin" || op == "ReduceMax") &&
        a->dims.size() <= 1 && !n.attrInts("axes") && in.size() == 1) {
        // Whole-vector reductions of shape vectors (e.g. the element count torch computes for Flatten).
        double acc = op == "ReduceProd" ? 1 : 0;
        for (size_t i = 0; i < a->size(); ++i) {
            double x = a->at(i);
            if (op == "ReduceProd")
                acc *= x;
            else if (op == "ReduceSum")
                acc += x;
            else if (op == "ReduceMin")
                acc = i ? std::min(acc, x) : x;
            else
                acc = i ? std::max(acc, x) : x;
        }
        auto v = std::make_shared<ConstValue>();
        v->dtype = a->dtype;
        if (n.attrIntOr("keepdims", 1))
            v->dims = std::vector<int64_t>(a->dims.size(), 1);
        if (v->isInt()) {
            const auto x = exactInt(acc);
            if (!x)
                return {};
            v->ints = {*x};
        } else {
            v->floats = {acc};
        }
        return {v};
    }
    return {};
}

} // namespace bpu
