// SPDX-License-Identifier: MIT
// bpuscope-bench: Google Benchmark over the families in this folder (one file each: LayoutBench.cpp, ...).
// GUI families (*GuiBench.cpp) run offscreen. `--shots=DIR` renders the graph view to PNGs instead.
#ifdef BPUSCOPE_BENCH_GUI
#include "BenchMain.h"

#include <QApplication>
#endif

#include "BenchSupport.h"
#include "core/util/ProcessAllocator.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    bpu::configureProcessAllocator(); // as the programs it measures do
    std::string shots;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strncmp(argv[i], "--shots=", 8) == 0)
            shots = argv[i] + 8;
        else if (std::strncmp(argv[i], "--analyse-once=", 15) == 0)
            return bench::analyseOnce(argv[i] + 15); // a child of the scale family: no Qt, no benchmark
        else
            args.push_back(argv[i]);
    }
    int n = static_cast<int>(args.size());
#ifdef BPUSCOPE_BENCH_GUI
    if (!std::getenv("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen"); // figures must not depend on a desktop being present
    QApplication app(n, args.data());
    if (!shots.empty()) {
        const bool ok = bench::writeShots(QString::fromStdString(shots));
        bench::shutdownGui();
        return ok ? 0 : 1;
    }
#else
    if (!shots.empty()) {
        std::fprintf(stderr, "bpuscope-bench: --shots needs a build with BPUSCOPE_BUILD_GUI\n");
        return 2;
    }
#endif
    benchmark::Initialize(&n, args.data());
    if (benchmark::ReportUnrecognizedArguments(n, args.data()))
        return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
#ifdef BPUSCOPE_BENCH_GUI
    bench::shutdownGui();
#endif
    return 0;
}
