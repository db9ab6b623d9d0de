// SPDX-License-Identifier: MIT
#include "ExternalDataFiles.h"

#include "Graph.h"

#include <filesystem>
#include <set>

namespace bpu {

std::vector<std::string> externalDataFiles(const Graph& g) {
    const std::filesystem::path dir = std::filesystem::path(g.path).parent_path();
    std::set<std::string> files; // one per file, however many initializers it holds
    for (const auto& t : g.tensors)
        if (!t.externalLocation.empty())
            files.insert((dir / t.externalLocation).lexically_normal().string());
    return {files.begin(), files.end()};
}

} // namespace bpu
