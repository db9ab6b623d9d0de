// SPDX-License-Identifier: MIT
#include "BenchSupport.h"
#include "BenchPaths.h"

#include "core/layout/SyntheticGraph.h"
#include "core/model/ModelImporter.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>

namespace bench {

std::vector<std::string> sampleFiles() {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(bench::samplesDir(), ec))
        if (e.path().extension() == ".onnx")
            out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

const bpu::Graph* sample(const std::string& file) {
    static std::map<std::string, std::unique_ptr<bpu::Graph>> cache;
    auto it = cache.find(file);
    if (it == cache.end()) {
        std::unique_ptr<bpu::Graph> g;
        try {
            g = std::make_unique<bpu::Graph>(bpu::ModelImporter::load(bench::samplesDir() + "/" + file));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bpuscope-bench: %s: %s\n", file.c_str(), e.what());
        }
        it = cache.emplace(file, std::move(g)).first;
    }
    return it->second.get();
}

const bpu::Graph& synthetic(int nodes, int towers) {
    static std::map<std::pair<int, int>, bpu::Graph> cache;
    auto it = cache.find({nodes, towers});
    if (it == cache.end())
        it = cache.emplace(std::make_pair(nodes, towers), bpu::layout::makeSyntheticGraph(nodes, 1, towers))
                 .first;
    return it->second;
}

std::string stem(const std::string& file) {
    return std::filesystem::path(file).stem().string();
}

std::shared_ptr<const bpu::TargetProfile> s100() {
    static const auto t = std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100"));
    return t;
}

} // namespace bench
