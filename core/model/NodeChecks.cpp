// SPDX-License-Identifier: MIT
#include "NodeChecks.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace bpu {

namespace {

/// No real kernel, stride, dilation, pad, group or block size is anywhere near 2^31; larger values only
/// overflow the int64 arithmetic of onnx's inference ((k - 1) * d + 1, stride * (n - 1)) and ours.
constexpr int64_t kMaxCount = (int64_t{1} << 31) - 1;
/// onnx's SAME-padding inference finds the residual by subtracting the stride in a loop: dims / stride
/// iterations. Beyond this the import would stall for seconds inside the library.
constexpr int64_t kMaxSameLoop = int64_t{1} << 26;

enum class Need {
    Positive,    ///< each value in [1, kMaxCount]
    NonNegative, ///< each value in [0, kMaxCount]
    Permutation, ///< the values are 0..n-1, each once
};

struct AttrRule {
    const char* name;
    Need need;
    bool list; ///< INTS (read as ints()) or INT (read as i(), as onnx's getAttribute does)
};

/// How the spatial-list attributes of a conv/pool op relate: their lengths agree with each other and with
/// the input's spatial rank, and the weight input (if any) has the input's rank.
struct OpChecks {
    const char* op;
    std::vector<AttrRule> attrs;
    bool spatial = false; ///< strides/dilations/kernel_shape/pads/output_* are per spatial dim
    int weight = -1;      ///< input whose rank must equal input 0's; -1 if none
    /// Input whose shape onnx 1.12's inference reads without checking that it is known (MaxUnpool's
    /// indices: their dim 1); -1 if none.
    int shapeRead = -1;
    /// Input whose rank onnx 1.12's inference takes for granted, reading its dims unchecked (STFT's
    /// signal: dims 0 to 2), and that rank; -1 if none. A known other rank is an error; an unknown shape
    /// only stops inference.
    int rankedInput = -1;
    int rank = 0;
};

const std::vector<OpChecks>& table() {
    const AttrRule strides{"strides", Need::Positive, true}, dilations{"dilations", Need::Positive, true},
        kernel{"kernel_shape", Need::Positive, true}, pads{"pads", Need::NonNegative, true},
        group{"group", Need::Positive, false};
    static const std::vector<OpChecks> t{
        {"Conv", {strides, dilations, kernel, pads, group}, true, 1},
        {"ConvInteger", {strides, dilations, kernel, pads, group}, true, 1},
        {"QLinearConv", {strides, dilations, kernel, pads, group}, true, 3},
        {"ConvTranspose",
         {strides,
          dilations,
          kernel,
          pads,
          group,
          {"output_padding", Need::NonNegative, true},
          {"output_shape", Need::NonNegative, true}},
         true,
         1},
        {"MaxPool", {strides, dilations, kernel, pads}, true},
        {"AveragePool", {strides, dilations, kernel, pads}, true},
        {"LpPool", {strides, dilations, kernel, pads}, true},
        {"MaxUnpool", {strides, kernel, pads}, true, 1, 1},
        {"MaxRoiPool", {{"pooled_shape", Need::Positive, true}}},
        {"RoiAlign", {{"output_height", Need::Positive, false}, {"output_width", Need::Positive, false}}},
        {"DepthToSpace", {{"blocksize", Need::Positive, false}}},
        {"SpaceToDepth", {{"blocksize", Need::Positive, false}}},
        {"LRN", {{"size", Need::Positive, false}}},
        {"Transpose", {{"perm", Need::Permutation, true}}},
        {"Range", {}},                     // its inputs' values: GuardedSchemas checks them
        {"STFT", {}, false, -1, -1, 0, 3}, // signal [batch, length, 1 or 2]: found by fuzz_import
    };
    return t;
}

const OpChecks* checksFor(const std::string& opType, const std::string& domain) {
    if (!domain.empty() && domain != "ai.onnx")
        return nullptr; // other domains' ops have no onnx schema: onnx never runs inference on them
    for (const auto& c : table())
        if (opType == c.op)
            return &c;
    return nullptr;
}

std::string listText(const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size() && i < 8; ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    if (v.size() > 8)
        s += ", ... (" + std::to_string(v.size()) + " values)";
    return s + "]";
}

std::vector<int64_t> valuesOf(const onnx::AttributeProto& a, bool list) {
    if (list)
        return {a.ints().begin(), a.ints().end()};
    if (a.has_i())
        return {a.i()};
    return {};
}

std::string ruleProblem(const AttrRule& r, const onnx::AttributeProto& a) {
    const std::vector<int64_t> v = valuesOf(a, r.list);
    const std::string shown =
        r.list ? listText(v) : (v.empty() ? std::string("unset") : std::to_string(v[0]));
    const std::string head = std::string("attribute '") + r.name + "' is " + shown + ": ";
    switch (r.need) {
    case Need::Positive:
        for (int64_t x : v)
            if (x < 1 || x > kMaxCount)
                return head + (r.list ? "each value" : "it") + " must be in [1, " +
                       std::to_string(kMaxCount) + "]";
        break;
    case Need::NonNegative:
        for (int64_t x : v)
            if (x < 0 || x > kMaxCount)
                return head + (r.list ? "each value" : "it") + " must be in [0, " +
                       std::to_string(kMaxCount) + "]";
        break;
    case Need::Permutation: {
        std::vector<bool> seen(v.size(), false);
        for (int64_t x : v) {
            if (x < 0 || x >= static_cast<int64_t>(v.size()) || seen[static_cast<size_t>(x)])
                return head + "it must hold each axis 0.." + std::to_string(v.size() ? v.size() - 1 : 0) +
                       " once";
            seen[static_cast<size_t>(x)] = true;
        }
        break;
    }
    }
    return {};
}

/// Length each spatial-list attribute must have for `spatial` dims (0 if the attribute is not one).
size_t expectedLength(const std::string& name, size_t spatial) {
    if (name == "pads")
        return 2 * spatial;
    if (name == "strides" || name == "dilations" || name == "kernel_shape" || name == "output_padding" ||
        name == "output_shape")
        return spatial;
    return 0;
}

/// The spatial rank the list attributes agree on (strides, dilations, kernel_shape: n; pads: 2n), or a
/// problem if they disagree. `rank` is 0 when no list is present.
std::string spatialRank(const OpChecks& c, const AttributeLookup& attr, size_t& rank, std::string& from) {
    rank = 0;
    from.clear();
    for (const auto& r : c.attrs) {
        const onnx::AttributeProto* a = attr(r.name);
        if (!a || !r.list || expectedLength(r.name, 1) == 0)
            continue;
        const size_t per = expectedLength(r.name, 1);
        const size_t n = static_cast<size_t>(a->ints_size());
        if (n % per != 0)
            return std::string("attribute '") + r.name + "' has " + std::to_string(n) +
                   " values: it needs 2 per spatial axis (begins, then ends)";
        if (from.empty()) {
            rank = n / per;
            from = r.name;
        } else if (n / per != rank) {
            return std::string("attribute '") + r.name + "' has " + std::to_string(n) + " values but '" +
                   from + "' has " + std::to_string(expectedLength(from, rank)) +
                   ": they must describe the same " + std::to_string(rank) + " spatial axes";
        }
    }
    return {};
}

int rankOf(const onnx::TypeProto* t) {
    if (!t || !t->has_tensor_type() || !t->tensor_type().has_shape())
        return -1;
    return t->tensor_type().shape().dim_size();
}

} // namespace

bool isGuardedOp(const std::string& opType, const std::string& domain) {
    return checksFor(opType, domain) != nullptr;
}

AttributeLookup attributesOf(const onnx::NodeProto& n) {
    return [&n](const std::string& name) -> const onnx::AttributeProto* {
        const onnx::AttributeProto* found = nullptr;
        for (const auto& a : n.attribute())
            if (a.name() == name)
                found = &a;
        return found;
    };
}

std::string inferenceHazard(const std::string& opType, const std::string& domain,
                            const InputTypeLookup& input, size_t inputCount) {
    const OpChecks* c = checksFor(opType, domain);
    if (c && c->rankedInput >= 0 && static_cast<size_t>(c->rankedInput) < inputCount &&
        rankOf(input(static_cast<size_t>(c->rankedInput))) < 0)
        return "the shape of input " + std::to_string(c->rankedInput) + " is not known (rank " +
               std::to_string(c->rank) + " needed)";
    if (!c || c->shapeRead < 0 || static_cast<size_t>(c->shapeRead) >= inputCount || rankOf(input(0)) < 0)
        return {};
    if (rankOf(input(static_cast<size_t>(c->shapeRead))) < 2)
        return "the shape of input " + std::to_string(c->shapeRead) + " is not known (rank 2 or more needed)";
    return {};
}

std::string attributeProblem(const std::string& opType, const std::string& domain,
                             const AttributeLookup& attr) {
    const OpChecks* c = checksFor(opType, domain);
    if (!c)
        return {};
    for (const auto& r : c->attrs)
        if (const onnx::AttributeProto* a = attr(r.name))
            if (std::string p = ruleProblem(r, *a); !p.empty())
                return p;
    if (c->spatial) {
        size_t rank = 0;
        std::string from;
        if (std::string p = spatialRank(*c, attr, rank, from); !p.empty())
            return p;
    }
    return {};
}

std::string inputProblem(const std::string& opType, const std::string& domain, const AttributeLookup& attr,
                         const InputTypeLookup& input, size_t inputCount) {
    const OpChecks* c = checksFor(opType, domain);
    if (c && c->rankedInput >= 0 && static_cast<size_t>(c->rankedInput) < inputCount) {
        const int r = rankOf(input(static_cast<size_t>(c->rankedInput)));
        if (r >= 0 && r != c->rank)
            return "input " + std::to_string(c->rankedInput) + " has rank " + std::to_string(r) + ": " +
                   opType + " needs rank " + std::to_string(c->rank);
    }
    if (!c || !c->spatial || inputCount == 0)
        return {};
    const int xr = rankOf(input(0));
    if (xr < 0)
        return {};
    if (xr < 3)
        return "input 0 has rank " + std::to_string(xr) + ": " + opType +
               " needs (N, C, spatial...) - rank 3 or more";
    if (c->weight >= 0 && static_cast<size_t>(c->weight) < inputCount) {
        const int wr = rankOf(input(static_cast<size_t>(c->weight)));
        if (wr >= 0 && wr != xr)
            return "its weight (input " + std::to_string(c->weight) + ") has rank " + std::to_string(wr) +
                   " but its input has rank " + std::to_string(xr) + ": they must match";
    }
    size_t rank = 0;
    std::string from;
    if (std::string p = spatialRank(*c, attr, rank, from); !p.empty())
        return p;
    if (!from.empty() && rank != static_cast<size_t>(xr - 2))
        return "attribute '" + from + "' describes " + std::to_string(rank) +
               " spatial axes but its input (rank " + std::to_string(xr) + ") has " + std::to_string(xr - 2);
    // SAME padding with a stride: onnx subtracts the stride from the dim in a loop.
    const onnx::AttributeProto* autoPad = attr("auto_pad");
    const onnx::AttributeProto* strides = attr("strides");
    if (autoPad && strides && (autoPad->s() == "SAME_UPPER" || autoPad->s() == "SAME_LOWER")) {
        const auto& shape = input(0)->tensor_type().shape();
        for (int i = 0; i < strides->ints_size() && i + 2 < shape.dim_size(); ++i) {
            const int64_t s = strides->ints(i);
            const auto& d = shape.dim(i + 2);
            if (s > 1 && d.has_dim_value() && d.dim_value() / s > kMaxSameLoop)
                return "spatial dim " + std::to_string(i) + " of its input is " +
                       std::to_string(d.dim_value()) + ": too large for SAME padding with stride " +
                       std::to_string(s);
        }
    }
    return {};
}

} // namespace bpu
