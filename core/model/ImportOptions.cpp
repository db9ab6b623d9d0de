// SPDX-License-Identifier: MIT
#include "ImportOptions.h"

#include "TensorShape.h"

#include <charconv>
#include <stdexcept>

namespace bpu {

std::string inputShapeProblem(const std::vector<int64_t>& dims) {
    for (size_t i = 0; i < dims.size(); ++i) {
        const bool batch = i == 0 && dims.size() >= 2;
        const int64_t limit = batch ? kMaxBatch : kMaxInputDim;
        if (dims[i] <= 0 || dims[i] > limit)
            return std::string(batch ? "the batch (dim 0)" : "dim " + std::to_string(i)) + " is " +
                   std::to_string(dims[i]) + ": it must be in 1.." + std::to_string(limit);
    }
    const auto n = checkedProduct(dims);
    if (!n || *n > kMaxTensorElements)
        return "the shape holds more than 2^40 elements";
    return {};
}

std::pair<std::string, std::vector<int64_t>> parseInputShapeArg(const std::string& arg) {
    auto eq = arg.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
        throw std::invalid_argument("--input-shape expects NAME=DxDxD (e.g. images=1x3x640x640), got '" + arg +
                                    "'");
    std::string name = arg.substr(0, eq);
    std::vector<int64_t> dims;
    const char* p = arg.data() + eq + 1;
    const char* end = arg.data() + arg.size();
    while (p < end) {
        int64_t v = 0;
        auto [next, ec] = std::from_chars(p, end, v);
        if (ec != std::errc{} || v <= 0)
            throw std::invalid_argument("--input-shape '" + arg + "': each dim must be a positive integer");
        dims.push_back(v);
        if (dims.size() > 64)
            throw std::invalid_argument("--input-shape '" + arg.substr(0, 80) + "...': more than 64 dims");
        p = next;
        if (p < end) {
            if (*p != 'x' && *p != ',')
                throw std::invalid_argument("--input-shape '" + arg + "': separate dims with 'x'");
            ++p;
            if (p == end)
                throw std::invalid_argument("--input-shape '" + arg + "': trailing separator");
        }
    }
    if (std::string problem = inputShapeProblem(dims); !problem.empty())
        throw std::invalid_argument("--input-shape " + name + ": " + problem);
    return {name, dims};
}

} // namespace bpu
