// SPDX-License-Identifier: MIT
// Benchmark family: the layered layout (core/layout) on every sample and on synthetic 2k / 10k graphs.
#include "BenchSupport.h"

#include "core/layout/GraphLayoutInput.h"
#include "core/layout/LayeredLayout.h"

#include <benchmark/benchmark.h>

namespace {

void report(benchmark::State& state, const bpu::layout::GraphLayoutInput& in, const bpu::layout::Result& r) {
    state.counters["nodes"] = double(in.input.sizes.size());
    state.counters["edges"] = double(in.input.edges.size());
    state.counters["layers"] = r.stats.layers;
    state.counters["dummies"] = r.stats.dummies;
    state.counters["cross0"] = double(r.stats.crossingsInitial);
    state.counters["cross"] = double(r.stats.crossingsFinal);
    state.counters["ms_rank"] = r.stats.msLayering;
    state.counters["ms_order"] = r.stats.msOrdering;
    state.counters["ms_xy"] = r.stats.msPositioning;
}

void layoutGraph(benchmark::State& state, const bpu::Graph& g) {
    const auto in = bpu::layout::buildGraphLayoutInput(g);
    bpu::layout::Result r;
    for (auto _ : state) {
        r = bpu::layout::layeredLayout(in.input);
        benchmark::DoNotOptimize(r.nodes.data());
    }
    report(state, in, r);
}

void BM_LayoutSample(benchmark::State& state, const std::string& file) {
    const bpu::Graph* g = bench::sample(file);
    if (!g) {
        state.SkipWithError("sample does not import");
        return;
    }
    layoutGraph(state, *g);
}

/// range(0) nodes, range(1) parallel towers.
void BM_LayoutSynthetic(benchmark::State& state) {
    layoutGraph(state, bench::synthetic(int(state.range(0)), int(state.range(1))));
}

/// Building the layout input from the IR (edges through tensors), separately from the layout itself.
void BM_LayoutInput(benchmark::State& state) {
    const bpu::Graph& g = bench::synthetic(int(state.range(0)), 1);
    for (auto _ : state) {
        auto in = bpu::layout::buildGraphLayoutInput(g);
        benchmark::DoNotOptimize(in.input.edges.data());
    }
}

[[maybe_unused]] const bool registered = [] {
    for (const std::string& file : bench::sampleFiles())
        benchmark::RegisterBenchmark(("layout/" + bench::stem(file)).c_str(), BM_LayoutSample, file)
            ->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace

BENCHMARK(BM_LayoutSynthetic)
    ->Name("layout/synthetic")
    ->ArgNames({"nodes", "towers"})
    ->Args({2000, 1})
    ->Args({10000, 1})
    ->Args({10000, 8})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LayoutInput)
    ->Name("layout/input")
    ->ArgNames({"nodes"})
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);
