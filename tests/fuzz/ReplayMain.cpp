// SPDX-License-Identifier: MIT
// A main for the fuzz targets without libFuzzer: feeds every file named on the command line (or found in a
// folder named there, recursively) to LLVMFuzzerTestOneInput once. The ordinary test build links each target
// with it and ctest replays the seed corpora, so the harnesses keep compiling against the engine's API and
// every seed (including tests/data/hostile) stays a passing input under gcc and under the sanitizer build —
// the libFuzzer build itself (clang, -DBPUSCOPE_FUZZ=ON) only runs when someone fuzzes.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

int replay(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "replay: cannot read %s\n", file.c_str());
        return 1;
    }
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    int failures = 0, inputs = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg = argv[i];
        std::vector<std::filesystem::path> files;
        if (std::filesystem::is_directory(arg)) {
            // The whole tree (tests/data holds its models in subfolders), in a fixed order.
            for (const auto& e : std::filesystem::recursive_directory_iterator(arg))
                if (e.is_regular_file())
                    files.push_back(e.path());
            std::sort(files.begin(), files.end());
        } else {
            files.push_back(arg);
        }
        for (const auto& f : files) {
            failures += replay(f);
            ++inputs;
        }
    }
    // A crash or a failed property aborts inside the target; reaching here means every input held.
    std::printf("replayed %d input(s)\n", inputs);
    return failures == 0 && inputs > 0 ? 0 : 1;
}
