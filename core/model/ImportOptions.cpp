// SPDX-License-Identifier: MIT
#include "ImportOptions.h"

#include <charconv>
#include <stdexcept>

namespace bpu {

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
        p = next;
        if (p < end) {
            if (*p != 'x' && *p != ',')
                throw std::invalid_argument("--input-shape '" + arg + "': separate dims with 'x'");
            ++p;
            if (p == end)
                throw std::invalid_argument("--input-shape '" + arg + "': trailing separator");
        }
    }
    return {name, dims};
}

} // namespace bpu
