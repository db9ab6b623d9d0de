// SPDX-License-Identifier: MIT
#pragma once

// Where the bench finds the samples, the programs it times and its generated scale models. Written by CMake
// into the build folder (app/CMakeLists.txt), so no bench compile line carries an absolute path (ccache hits
// from a checkout in another folder).

#include <string>

namespace bench {

std::string samplesDir();     ///< the source tree's samples/
std::string cliPath();        ///< bpuscope-cli (AnalysisBench and ScaleBench time it as a subprocess)
std::string guiPath();        ///< bpuscope (empty without the GUI)
std::string scaleGenerator(); ///< bench/gen_scale_models.py
std::string scaleDir();       ///< the generated 10k/100k models: in the build tree, never committed

} // namespace bench
