// SPDX-License-Identifier: MIT
#pragma once

// Where the tests find the source tree's samples and data and the programs they run. Written by CMake into
// the build folder (tests/support/CMakeLists.txt) instead of passed as defines, so no test's compile line
// carries an absolute path and a checkout in another folder hits the ccache another one filled.

#include <string>

namespace bpu::test {

std::string samplesDir();  ///< samples/
std::string testDataDir(); ///< tests/data/
std::string resourceDir(); ///< resources/
std::string sourceDir();   ///< the checkout
std::string buildDir();    ///< the build folder
std::string cliPath();     ///< bpuscope-cli
std::string guiPath();     ///< bpuscope (empty without the GUI)
std::string cmakePath();   ///< the cmake that configured the build (tst_install runs `cmake --install`)

} // namespace bpu::test
