// SPDX-License-Identifier: MIT
#pragma once

// Timing helpers shared by the benchmark families that compare against another process (python's onnx,
// bpuscope-cli, the GUI): a child's wall and CPU time and peak RSS, and this process's own.

#include <string>
#include <vector>

namespace bench {

struct ProcessRun {
    bool ok = false;
    double wallMs = 0, cpuMs = 0, peakRssMb = 0;
    std::string out; ///< its standard output
};

/// Runs argv (stderr to /dev/null) and reports wall time, the child's CPU time, peak RSS and its output.
ProcessRun runProcess(const std::vector<std::string>& argv);
/// CPU seconds used by this process so far (the machine may be shared: CPU time is the steadier figure).
double cpuSeconds();
/// This process's peak RSS in MB.
double peakRssMb();

} // namespace bench
