// SPDX-License-Identifier: MIT
#pragma once

// Timing helpers shared by the benchmark families that compare against another process (python's onnx,
// bpuscope-cli, the GUI): a child's wall and CPU time and peak RSS, and this process's own.

#include <string>
#include <vector>

namespace bench {

/// The python with onnx installed that the comparisons run.
inline constexpr const char* kPython = "/usr/bin/python3";
/// Graph-only samples name a weights file that is not there: load without it (BpuScope never reads weights
/// either), then run onnx's own shape inference over the whole graph. It prints the CPU seconds of the load +
/// inference alone (time.process_time around them), the floor without the interpreter's start-up and
/// `import onnx`.
inline constexpr const char* kPythonInfer =
    "import onnx,sys,time; t=time.process_time(); m=onnx.load(sys.argv[1], load_external_data=False); "
    "onnx.shape_inference.infer_shapes(m); print(time.process_time()-t)";

struct ProcessRun {
    bool ok = false;
    double wallMs = 0, cpuMs = 0, peakRssMb = 0;
    std::string out; ///< its standard output
};

/// Runs argv (stderr to /dev/null) and reports wall time, the child's CPU time, peak RSS and its output. The
/// peak RSS is read through GNU time (/usr/bin/time, package `time`) where it is installed: without it, a
/// child reports at least this process's own peak (see BenchProcess.cpp).
ProcessRun runProcess(const std::vector<std::string>& argv);
/// CPU seconds used by this process so far (the machine may be shared: CPU time is the steadier figure).
double cpuSeconds();
/// This process's peak RSS in MB.
double peakRssMb();

} // namespace bench
